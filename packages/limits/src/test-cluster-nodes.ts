/**
 * Stand-in nodes for testing the slot map (cluster-slots.ts) and the router (cluster-router.ts)
 * without a Redis Cluster: every node's requester is answered by one function, and what each node
 * was sent is logged.
 */
import { SlotMap } from "./cluster-slots.ts";
import { parseClusterUrl } from "./cluster-url.ts";
import type { RedisRequester } from "./redis-requester.ts";
import type { Arg, Reply } from "./resp.ts";

/** Answers `args` sent to node `id` ("host:port"); throwing (a RedisReplyError, or another Error) fails the command. */
export type Answer = (id: string, args: readonly Arg[]) => Reply | Promise<Reply>;

export interface FakeNodes {
  slots: SlotMap;
  /** "<id> <command …>" for every command sent, in order */
  sent: string[];
  /** ids of the nodes whose requester was closed */
  closed: string[];
}

/** A slot map over the seed nodes of `url` (redis+cluster://…), whose nodes are answered by `answer`. */
export function fakeNodes(url: string, timeoutMs: number, answer: Answer): FakeNodes {
  const sent: string[] = [];
  const closed: string[] = [];
  const connect = (nodeUrl: string): RedisRequester => {
    const id = nodeUrl.replace(/^rediss?:\/\/(?:[^@]*@)?/, "");
    return {
      ready: async () => {},
      send: async (args) => {
        sent.push(`${id} ${args.join(" ")}`);
        return answer(id, args);
      },
      lastError: () => undefined,
      close: async () => {
        closed.push(id);
      },
      request: () => Promise.reject(new Error("not used by the slot map or the router")),
    };
  };
  return { slots: new SlotMap(parseClusterUrl(url), { timeoutMs, connect }), sent, closed };
}
