/**
 * The router on its own (cluster-router.ts), over stand-in nodes: which replies send a command
 * again, where, and how often; and that nothing else does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { keySlot } from "./cluster-keys.ts";
import { ClusterRouter, redirectTarget } from "./cluster-router.ts";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";
import { fakeNodes, type Answer } from "./test-cluster-nodes.ts";

describe("redirectTarget", () => {
  it("reads host:port, IPv6 in brackets, and takes an unknown host as the node that replied", () => {
    expect(redirectTarget("10.0.0.2:7001", "10.0.0.1")).toEqual({ host: "10.0.0.2", port: 7001 });
    expect(redirectTarget("[::1]:7002", "h")).toEqual({ host: "::1", port: 7002 });
    expect(redirectTarget("::1:7002", "h")).toEqual({ host: "::1", port: 7002 });
    expect(redirectTarget(":7003", "replier")).toEqual({ host: "replier", port: 7003 });
    expect(redirectTarget("?:7004", "replier")).toEqual({ host: "replier", port: 7004 });
  });

  it("refuses an address without a usable port", () => {
    for (const bad of ["host", "host:", "host:0", "host:65536", "host:7.5", "host:x"]) {
      expect(redirectTarget(bad, "h"), bad).toBeUndefined();
    }
  });
});

const KEY = "rl:{acct}:m";
const SLOT = keySlot(KEY);
const open: ClusterRouter[] = [];

/** A router over one master, a:1, serving every slot; `answer` replies for every node but CLUSTER SLOTS. */
async function routerOver(answer: Answer, timeoutMs = 1_000) {
  const nodes = fakeNodes("redis+cluster://a:1", timeoutMs, (id, args) => {
    if (args[0] === "CLUSTER") return [[0, 16_383, ["a", 1]]];
    return answer(id, args);
  });
  await nodes.slots.refresh();
  nodes.sent.length = 0;
  const router = new ClusterRouter(nodes.slots, timeoutMs);
  open.push(router);
  /** what was sent, but the background reloads of the slot map */
  const commands = () => nodes.sent.filter((line) => !line.endsWith("CLUSTER SLOTS"));
  return { router, slots: nodes.slots, commands };
}

afterEach(async () => {
  for (const router of open.splice(0)) router.close();
});

describe("ClusterRouter", () => {
  it("follows MOVED to the new owner and records it in the slot map", async () => {
    const { router, slots, commands } = await routerOver((id) => {
      if (id === "a:1") throw new RedisReplyError(`MOVED ${SLOT} b:2`);
      return "v";
    });
    await expect(router.route(["GET", KEY])).resolves.toBe("v");
    expect(commands()).toEqual([`a:1 GET ${KEY}`, `b:2 GET ${KEY}`]);
    expect(slots.ownerOf(SLOT)?.id).toBe("b:2");
  });

  it("follows ASK with ASKING on the importing node, and leaves the slot map as it was", async () => {
    const { router, slots, commands } = await routerOver((id, args) => {
      if (id === "a:1") throw new RedisReplyError(`ASK ${SLOT} b:2`);
      return args[0] === "ASKING" ? "OK" : "v";
    });
    await expect(router.route(["GET", KEY])).resolves.toBe("v");
    expect(commands()).toEqual([`a:1 GET ${KEY}`, "b:2 ASKING", `b:2 GET ${KEY}`]);
    expect(slots.ownerOf(SLOT)?.id).toBe("a:1");
  });

  it("gives up after MAX_REDIRECTIONS MOVED", async () => {
    const { router, commands } = await routerOver((id) => {
      throw new RedisReplyError(`MOVED ${SLOT} ${id === "a:1" ? "b:2" : "a:1"}`);
    });
    await expect(router.route(["GET", KEY])).rejects.toThrow(/^too many Redis Cluster redirections; last: MOVED/);
    expect(commands()).toHaveLength(6);
  });

  it("tries TRYAGAIN again until it runs, and answers the last TRYAGAIN when the deadline comes first", async () => {
    let splits = 2;
    const { router, commands } = await routerOver(() => {
      if (splits-- > 0) throw new RedisReplyError("TRYAGAIN Multiple keys request during rehashing of slot");
      return 1;
    });
    await expect(router.route(["INCR", KEY])).resolves.toBe(1);
    expect(commands()).toHaveLength(3);

    const late = await routerOver(() => {
      throw new RedisReplyError("TRYAGAIN Multiple keys request during rehashing of slot");
    }, 50);
    await expect(late.router.route(["INCR", KEY])).rejects.toThrow(/^TRYAGAIN/);
  });

  it("tries CLUSTERDOWN at most MAX_RETRIES more times", async () => {
    const { router, commands } = await routerOver(() => {
      throw new RedisReplyError("CLUSTERDOWN Hash slot not served");
    });
    await expect(router.route(["INCR", KEY])).rejects.toThrow(/^CLUSTERDOWN/);
    expect(commands()).toHaveLength(4);
  });

  it("sends the script body after NOSCRIPT, to the same node", async () => {
    const { router, commands } = await routerOver((_id, args) => {
      if (args[0] === "EVALSHA") throw new RedisReplyError("NOSCRIPT No matching script");
      return "ran";
    });
    const sha: Arg[] = ["EVALSHA", "abc", 1, KEY];
    await expect(router.route(sha, ["EVAL", "return 1", 1, KEY])).resolves.toBe("ran");
    expect(commands()).toEqual([`a:1 EVALSHA abc 1 ${KEY}`, `a:1 EVAL return 1 1 ${KEY}`]);
    // without a script body, NOSCRIPT is the answer
    await expect(router.route(sha)).rejects.toThrow(/^NOSCRIPT/);
  });

  it("never sends again a command whose connection failed, nor after another error reply", async () => {
    let reply: Error = new Error("connection lost");
    const { router, commands } = await routerOver(() => {
      throw reply;
    });
    await expect(router.route(["INCR", KEY])).rejects.toThrow("Redis Cluster node a:1: connection lost");
    reply = new RedisReplyError("WRONGTYPE Operation against a key holding the wrong kind of value");
    await expect(router.route(["INCR", KEY])).rejects.toThrow(/^WRONGTYPE/);
    expect(commands()).toHaveLength(2);
  });

  it("fails a call its node does not answer within the timeout", async () => {
    const { router } = await routerOver(() => new Promise<Reply>(() => {}), 30);
    await expect(router.route(["INCR", KEY])).rejects.toThrow("Redis Cluster did not answer within 30 ms");
  });

  it("sends PING to every master, and fails when one of them does", async () => {
    const { router, slots, commands } = await routerOver((id) => {
      if (id === "b:2") throw new Error("connection refused");
      return "PONG";
    });
    await expect(router.route(["PING"])).resolves.toBe("PONG");
    slots.apply([[0, 8_000, ["a", 1]], [8_001, 16_383, ["b", 2]]], slots.nodeAt("a", 1));
    await expect(router.route(["PING"])).rejects.toThrow("Redis Cluster node b:2: connection refused");
    expect(commands()).toEqual(["a:1 PING", "a:1 PING", "b:2 PING"]);
  });

  it("fails the calls waiting when closed", async () => {
    const { router, slots } = await routerOver(() => new Promise<Reply>(() => {}));
    const waiting = router.route(["INCR", KEY]);
    router.close();
    await slots.close();
    await expect(waiting).rejects.toThrow("the Redis requester is closed");
    await expect(router.route(["INCR", KEY])).rejects.toThrow("the Redis requester is closed");
  });
});
