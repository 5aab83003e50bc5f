/**
 * The @upstash/redis `Requester` for a Redis Cluster (`redis+cluster://` / `rediss+cluster://`):
 * a drop-in for createRedisRequester, with the same fail-fast semantics, routing each command to
 * the master that owns its slot.
 *
 * Built on the project's own per-node RedisRequester (one pipelined RESP connection per master)
 * rather than on ioredis' `Cluster`, because the limiter must never run a decision twice, and
 * ioredis decides on its own when to re-send: a command whose connection closed is re-sent after
 * `retryDelayOnFailover`, node connections re-send unanswered commands after a reconnect
 * (`autoResendUnfulfilledCommands`) or queue them while connecting, and TRYAGAIN/CLUSTERDOWN
 * retries sit in a delay queue that does not know the caller's `commandTimeout` already rejected.
 * Each can run a script after the caller fell back to the local limiter. Here the rules are few,
 * each beside its code:
 *
 * - cluster-url.ts: the seed nodes and credentials from the URL.
 * - cluster-keys.ts: where a command goes (the slot of its first key, any master, every master).
 * - cluster-slots.ts: the slot map from `CLUSTER SLOTS`, one connection per node, reloaded in the
 *   background; `shardOf(key)`, so the limiter can degrade per shard.
 * - cluster-router.ts: the calls, their deadline, and the few replies after which a command is sent
 *   again (`MOVED`, `ASK`, `TRYAGAIN`, `CLUSTERDOWN`, `NOSCRIPT`); anything else fails the call at once.
 * - Upstash's script commands (the shebang Redis 7 refuses, NOSCRIPT, SCRIPT LOAD) are handled in
 *   upstash-scripts.ts, shared with redis-requester.ts.
 */
import type tls from "node:tls";
import { ClusterRouter } from "./cluster-router.ts";
import { SlotMap } from "./cluster-slots.ts";
import { parseClusterUrl } from "./cluster-url.ts";
import type { RedisRequester } from "./redis-requester.ts";
import type { Arg, Reply } from "./resp.ts";
import { upstashCommands, upstashRequest, type StrippedScript } from "./upstash-scripts.ts";

export { keySlot } from "./cluster-keys.ts";
export { parseClusterUrl } from "./cluster-url.ts";

const noop = (): void => {};

export interface ClusterRequesterOptions {
  /** extra TLS settings for rediss+cluster:// (e.g. `ca`), used for every node */
  tls?: tls.ConnectionOptions;
}

export interface ClusterRequester extends RedisRequester {
  /**
   * The master that serves `key`'s slot by the current slot map ("host:port"), or `slot:<n>` when
   * no master serves it: the limiter degrades per shard, so that one lost master leaves the
   * accounts on the others exact.
   */
  shardOf(key: string): string;
}

export function createClusterRequester(url: string, timeoutMs: number, opts: ClusterRequesterOptions = {}): ClusterRequester {
  const slots = new SlotMap(parseClusterUrl(url), { timeoutMs, tls: opts.tls });
  const router = new ClusterRouter(slots, timeoutMs);
  slots.refresh().catch(noop);

  const route = (args: Arg[], fallback?: Arg[]): Promise<Reply> => router.route(args, fallback);
  const evalScript = (script: StrippedScript, args: readonly Arg[]): Promise<Reply> => {
    // args[0] is the hash or script Upstash sent; numkeys, keys and arguments go as they are
    const withSha: Arg[] = ["EVALSHA", ...args];
    withSha[1] = script.sha;
    const withBody: Arg[] = ["EVAL", ...args];
    withBody[1] = script.body;
    return route(withSha, withBody);
  };

  return {
    shardOf: (key) => slots.shardOf(key),
    send: (args) => route([...args]),
    lastError: () => slots.lastError(),
    request: upstashRequest(upstashCommands({ evalScript, send: (args) => route(args) })),
    /** resolves once the slot map is known and every master answers PING; rejects after `ms` or when a master is unreachable */
    ready: (ms) => slots.ready(ms),
    close: async () => {
      router.close();
      await slots.close();
    },
  };
}
