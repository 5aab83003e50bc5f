/**
 * The Redis Cluster requester: URL parsing, slot computation, and real 3-master clusters of private
 * redis-server processes (routing by hash tag, NOSCRIPT through @upstash/redis, a slot migrated
 * while in use, a master that stops answering or dies).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "@upstash/redis";
import { createClusterRequester, keySlot, parseClusterUrl } from "./cluster-requester.ts";
import { createRateLimiter } from "./limiter.ts";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";
import { redisCli, sleep, startCluster, stopAllRedis, waitFor, type TestCluster } from "./test-redis.ts";
import type { Decision } from "./types.ts";

const sha1 = (s: string) => createHash("sha1").update(s).digest("hex");

/** A rate limiter on the cluster at `url`, and the types of the events it reports, in order. */
function clusterLimiter(url: string, prefix: string, redisTimeoutMs: number) {
  const events: string[] = [];
  const rl = createRateLimiter({ store: { kind: "cluster", url }, prefix, redisTimeoutMs, onEvent: (e) => events.push(e.type) });
  return { rl, events };
}

describe("parseClusterUrl", () => {
  it("reads seed nodes, with the default port where none is given", () => {
    expect(parseClusterUrl("redis+cluster://10.0.0.1:7000,10.0.0.2:7001,redis-3")).toEqual({
      nodes: [
        { host: "10.0.0.1", port: 7000 },
        { host: "10.0.0.2", port: 7001 },
        { host: "redis-3", port: 6379 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
  });

  it("reads credentials (percent-decoded), TLS and IPv6 addresses", () => {
    expect(parseClusterUrl("rediss+cluster://fiskal:p%40ss%3Aw0rd@[::1]:7000,cache.example.com:7001/")).toEqual({
      nodes: [
        { host: "::1", port: 7000 },
        { host: "cache.example.com", port: 7001 },
      ],
      username: "fiskal",
      password: "p@ss:w0rd",
      tls: true,
    });
    expect(parseClusterUrl("redis+cluster://:secret@h:1")).toMatchObject({ username: undefined, password: "secret" });
    expect(parseClusterUrl("REDIS+CLUSTER://h:1/0").nodes).toEqual([{ host: "h", port: 1 }]);
  });

  it("refuses what it cannot use, with a clear message that does not show the password", () => {
    const bad: [string, RegExp][] = [
      ["redis://h:6379", /must look like redis\+cluster:\/\/.*got redis:\/\//],
      ["h:6379,h:6380", /must look like redis\+cluster:\/\//],
      ["redis+cluster://", /at least one node/],
      ["redis+cluster://user:topsecret@", /at least one node/],
      ["redis+cluster://h:1,,h:2", /empty node between commas/],
      ["redis+cluster://h:1,h:abc", /invalid node "h:abc"/],
      ["redis+cluster://h:70000", /invalid port in "h:70000"/],
      ["redis+cluster://h:0", /invalid port/],
      ["redis+cluster://h:1/2", /only database 0/],
      ["redis+cluster://h:1?db=2", /only database 0/],
      ["redis+cluster://u:%zz@h:1", /percent-encoding/],
    ];
    for (const [url, message] of bad) {
      let error: Error | undefined;
      try {
        parseClusterUrl(url);
      } catch (err) {
        error = err as Error;
      }
      expect(error?.message, url).toMatch(message);
      expect(error?.message).not.toContain("topsecret");
    }
  });
});

/** Plain connections to single nodes, to look at the cluster behind the requester's back. */
const direct = new Map<number, RedisRequester>();
async function node(port: number): Promise<RedisRequester> {
  let rq = direct.get(port);
  if (!rq) {
    rq = createRedisRequester(`redis://127.0.0.1:${port}`, 2_000);
    direct.set(port, rq);
  }
  await rq.ready(2_000);
  return rq;
}

interface Topology {
  idOf: Map<number, string>;
  /** port of the master owning each slot */
  owner: number[];
}

/** `CLUSTER NODES` as seen by the node on `port`. */
async function topology(port: number): Promise<Topology> {
  const text = String(await (await node(port)).send(["CLUSTER", "NODES"]));
  const idOf = new Map<number, string>();
  const owner: number[] = [];
  for (const line of text.trim().split("\n")) {
    const [id, address, flags, , , , , , ...ranges] = line.trim().split(" ");
    const p = Number(/:(\d+)@/.exec(address!)![1]);
    idOf.set(p, id!);
    if (!flags!.includes("master")) continue;
    for (const range of ranges) {
      if (range.startsWith("[")) continue; // a slot being imported or migrated
      const [from, to] = range.split("-").map(Number);
      for (let s = from!; s <= (to ?? from)!; s++) owner[s] = p;
    }
  }
  return { idOf, owner };
}

/** A hash tag `acct:N` for each master, owned by `port` in `topo`. */
function tagsPerMaster(topo: Topology, ports: number[]): Map<number, string> {
  const tags = new Map<number, string>();
  for (let n = 1; tags.size < ports.length; n++) {
    const tag = `acct:${n}`;
    const p = topo.owner[keySlot(`{${tag}}`)]!;
    if (!tags.has(p)) tags.set(p, tag);
  }
  return tags;
}

const errorOf = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
};

/** INCRBY on two keys of one tag, SET on a third; answers both counters. */
const COUNT = `
local a = redis.call('INCRBY', KEYS[1], ARGV[1])
local b = redis.call('INCRBY', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[2])
return {a, b}`;
const keysOf = (tag: string) => [`fiskal:{${tag}}:burst`, `fiskal:{${tag}}:minute`, `fiskal:{${tag}}:day`];
const evalBody = (script: string, keys: string[], args: Arg[]): Arg[] => ["EVAL", script, keys.length, ...keys, ...args];

afterAll(async () => {
  for (const rq of direct.values()) await rq.close();
  await stopAllRedis();
});

describe("a 3-master Redis Cluster", () => {
  let cluster: TestCluster;
  let rq: RedisRequester;
  let redis: Redis;
  let topo: Topology;
  let tags: Map<number, string>;

  beforeAll(async () => {
    cluster = await startCluster(3);
    topo = await topology(cluster.ports[0]!);
    tags = tagsPerMaster(topo, cluster.ports);
    rq = createClusterRequester(cluster.url, 1_000);
    await rq.ready(5_000);
    redis = new Redis(rq);
  });
  afterAll(async () => {
    await rq?.close();
    await cluster?.stop();
  });

  it("computes the same slot as the server", async () => {
    const server = await node(cluster.ports[0]!);
    const keys = ["fiskal:{acct:1234}:burst", "foo", "{}", "{}x", "{user1000}.following", "foo{}{bar}", "foo{{bar}}zap", "a{b", "ključ{čšć}", "", "x".repeat(300)];
    for (const key of keys) expect(keySlot(key), key).toBe(await server.send(["CLUSTER", "KEYSLOT", key]));
    expect(keySlot("{acct:1}:a")).toBe(keySlot("{acct:1}:b"));
  });

  it("runs a multi-key script of one hash tag on the master owning it, for tags on every master", async () => {
    expect(new Set(tags.keys())).toEqual(new Set(cluster.ports));
    for (const [owner, tag] of tags) {
      const keys = keysOf(tag);
      const slot = await (await node(owner)).send(["CLUSTER", "KEYSLOT", keys[0]!]);
      expect(topo.owner[slot as number]).toBe(owner);

      expect(await rq.request({ body: evalBody(COUNT, keys, [5, "x"]) })).toEqual({ result: [5, 5] });
      expect(await redis.eval(COUNT, keys, [2, "y"])).toEqual([7, 7]);
      expect(await redis.createScript<number[]>(COUNT).exec(keys, ["1", "z"])).toEqual([8, 8]);
      expect(await redis.mget<(number | string)[]>(...keys)).toEqual([8, 8, "z"]);

      // the keys live on the owner, and only there
      expect(await (await node(owner)).send(["GET", keys[0]!])).toBe("8");
      for (const other of cluster.ports.filter((p) => p !== owner)) {
        const err = await errorOf((await node(other)).send(["GET", keys[0]!]));
        expect(err.message).toBe(`MOVED ${slot} 127.0.0.1:${owner}`);
      }
      expect(await redis.del(...keys)).toBe(3);
    }
  });

  it("runs Upstash scripts that carry the allow-key-locking shebang Redis 7.0 refuses", async () => {
    const tag = tags.get(cluster.ports[1]!)!;
    const script = `#!lua flags=allow-key-locking\nreturn redis.call('INCR', KEYS[1])`;
    expect(await redis.createScript<number>(script).exec([`fiskal:{${tag}}:s`], [])).toBe(1);
    expect(await redis.eval(script, [`fiskal:{${tag}}:s`], [])).toBe(2);
  });

  it("answers NOSCRIPT so @upstash/redis sends the script, also after a node flushed its scripts", async () => {
    const owner = cluster.ports[2]!;
    const keys = keysOf(tags.get(owner)!);
    const script = `return redis.call('INCRBY', KEYS[1], ARGV[1]) -- ${Date.now()}`;

    const noscript = await errorOf(redis.evalsha(sha1(script), [keys[0]!], ["1"]));
    expect(noscript.message).toMatch(/^NOSCRIPT/);
    expect(await rq.request({ body: ["EVALSHA", sha1(script), 1, keys[0]!, 1] })).toEqual({ error: expect.stringMatching(/^NOSCRIPT/) });
    expect(await redis.eval(script, [keys[0]!], ["1"])).toBe(1);
    expect(await redis.evalsha(sha1(script), [keys[0]!], ["1"])).toBe(2);

    // the node forgot the script: EVALSHA comes back NOSCRIPT from the server, and the body follows once
    await (await node(owner)).send(["SCRIPT", "FLUSH"]);
    expect(await redis.evalsha(sha1(script), [keys[0]!], ["1"])).toBe(3);
    expect(await redis.createScript<number>(script).exec([keys[0]!], ["1"])).toBe(4);
    expect(await (await node(owner)).send(["GET", keys[0]!])).toBe("4");

    // SCRIPT LOAD reaches every master
    const loaded = `return ARGV[1] -- ${Date.now()}`;
    expect(await redis.scriptLoad(loaded)).toBe(sha1(loaded));
    for (const p of cluster.ports) expect(await (await node(p)).send(["SCRIPT", "EXISTS", sha1(loaded)])).toEqual([1]);
    expect(await redis.evalsha(sha1(loaded), [], ["hi"])).toBe("hi");
  });

  it("passes error replies through as { error } and answers PING for the whole cluster", async () => {
    const [a, b] = [tags.get(cluster.ports[0]!)!, tags.get(cluster.ports[1]!)!];
    expect(await rq.request({ body: ["EVAL", "return redis.error_reply('ERR boom')", 1, `{${a}}x`] })).toEqual({ error: "ERR boom" });
    expect(await rq.request({ body: ["MGET", `{${a}}x`, `{${b}}y`] })).toEqual({ error: expect.stringMatching(/^CROSSSLOT/) });
    expect(await rq.request({ body: ["EVAL", "return 1", 2, `{${a}}x`, `{${b}}y`] })).toEqual({ error: expect.stringMatching(/^CROSSSLOT/) });
    expect(await rq.request({ body: ["NOSUCHCOMMAND", "k"] })).toEqual({ error: expect.stringMatching(/^ERR unknown command/) });
    expect(await rq.request({ body: ["GET", "k"], path: ["pipeline"] })).toEqual({ error: expect.stringMatching(/pipelines/) });
    expect(await rq.send(["SET", `{${a}}raw`, "1"])).toBe("OK");
    expect(await errorOf(rq.send(["INCR", "{nope}x", "extra"]))).toBeInstanceOf(RedisReplyError);
    expect(await redis.ping()).toBe("PONG");
    expect(rq.lastError()).toBeUndefined();
  });

  it("serves the rate limiter as its store: exact under concurrency, for identities on every master", async () => {
    const { rl, events } = clusterLimiter(cluster.url, `t${Date.now()}`, 500);
    try {
      expect(rl.store).toBe("cluster");
      const limits = { burst: 10, perMinute: 60, perDay: 10_000 };
      for (const tag of tags.values()) {
        const decisions = await Promise.all(Array.from({ length: 40 }, () => rl.decide({ identity: tag, limits })));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
        expect(decisions.some((d) => d.degraded)).toBe(false);
      }
      expect(events).not.toContain("fallback");
      expect(rl.fallbackActive()).toBe(false);
    } finally {
      await rl.close();
    }
  });

  it("follows a slot migrated while in use: ASK during the migration, MOVED after it", async () => {
    const [source, target, third] = cluster.ports as [number, number, number];
    const tag = tags.get(source)!;
    const keys = keysOf(tag);
    const slot = keySlot(keys[0]!);
    const src = await node(source);
    const dst = await node(target);
    const run = (): Promise<Reply> => rq.send(evalBody(COUNT, keys, [1, "m"]));

    expect(await run()).toEqual([1, 1]);
    await dst.send(["CLUSTER", "SETSLOT", slot, "IMPORTING", topo.idOf.get(source)!]);
    await src.send(["CLUSTER", "SETSLOT", slot, "MIGRATING", topo.idOf.get(target)!]);

    // every key still on the source: the source runs it
    expect(await run()).toEqual([2, 2]);

    // some keys moved: the source answers TRYAGAIN; tried again for as long as the store timeout
    // (1 s here) allows, then the error, nothing counted
    expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", keys[0]!])).toBe("OK");
    const started = performance.now();
    expect(await rq.request({ body: evalBody(COUNT, keys, [1, "m"]) })).toEqual({ error: expect.stringMatching(/^TRYAGAIN/) });
    expect(performance.now() - started).toBeGreaterThan(900);
    expect(performance.now() - started).toBeLessThan(1_500);

    // every key moved: the source answers ASK, and the target runs it after ASKING
    const left = (await src.send(["CLUSTER", "GETKEYSINSLOT", slot, 1_000])) as string[];
    expect(left).toEqual(expect.arrayContaining([keys[1], keys[2]]));
    expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", ...left])).toBe("OK");
    expect((await errorOf(src.send(["GET", keys[0]!]))).message).toBe(`ASK ${slot} 127.0.0.1:${target}`);
    expect(await run()).toEqual([3, 3]);
    expect(await redis.mget(...keys)).toEqual([3, 3, "m"]);
    const [, onTarget] = await Promise.all([dst.send(["ASKING"]), dst.send(["GET", keys[0]!])]);
    expect(onTarget).toBe("3");

    // the migration ends: the source answers MOVED, and the requester follows it for good
    for (const p of [target, source, third]) {
      await (await node(p)).send(["CLUSTER", "SETSLOT", slot, "NODE", topo.idOf.get(target)!]);
    }
    expect((await errorOf(src.send(["GET", keys[0]!]))).message).toBe(`MOVED ${slot} 127.0.0.1:${target}`);
    const movedOnSource = async () => Number(/errorstat_MOVED:count=(\d+)/.exec(String(await src.send(["INFO", "errorstats"])))?.[1] ?? 0);
    const before = await movedOnSource();
    expect(await run()).toEqual([4, 4]);
    // one MOVED, then straight to the new owner
    expect(await movedOnSource()).toBe(before + 1);
    for (let i = 5; i < 10; i++) expect(await run()).toEqual([i, i]);
    expect(await movedOnSource()).toBe(before + 1);
    expect(await dst.send(["GET", keys[0]!])).toBe("9");
    await waitFor(async () => (await topology(third)).owner[slot] === target, 5_000, "the third master to learn the new owner");

    // a new requester learns the new owner from the slot map
    const fresh = createClusterRequester(cluster.url, 1_000);
    try {
      await fresh.ready(5_000);
      expect(await fresh.send(evalBody(COUNT, keys, [1, "m"]))).toEqual([10, 10]);
    } finally {
      await fresh.close();
    }
  });

  it("refuses calls once closed", async () => {
    const other = createClusterRequester(cluster.url, 1_000);
    await other.ready(5_000);
    await other.close();
    expect(await other.request({ body: ["GET", "{a}b"] })).toEqual({ error: "the Redis requester is closed" });
    await expect(other.ready(100)).rejects.toThrow(/closed/);
  });
});

describe("a Redis Cluster master that stops answering or dies", () => {
  const TIMEOUT = 200;
  let cluster: TestCluster;
  let rq: RedisRequester;
  let tags: Map<number, string>;

  beforeAll(async () => {
    cluster = await startCluster(3);
    tags = tagsPerMaster(await topology(cluster.ports[0]!), cluster.ports);
    rq = createClusterRequester(cluster.url, TIMEOUT);
    await rq.ready(5_000);
  });
  afterAll(async () => {
    await rq?.close();
    await cluster?.stop();
  });

  const timed = async <T>(p: Promise<T>): Promise<{ value: T; ms: number }> => {
    const started = performance.now();
    const value = await p;
    return { value, ms: performance.now() - started };
  };

  it("fails calls for a stalled master within the timeout, never sends them again, and recovers", async () => {
    const [victim, healthy] = cluster.ports as [number, number, number];
    const child = cluster.processes[0]!;
    const key = `fiskal:{${tags.get(victim)!}}:stall`;
    const other = `fiskal:{${tags.get(healthy)!}}:stall`;
    const incr = { body: ["EVAL", "return redis.call('INCR', KEYS[1])", 1, key] };

    child.kill("SIGSTOP");
    try {
      const call = await timed(rq.request(incr));
      expect(call.value).toEqual({ error: expect.stringMatching(/within 200 ms/) });
      expect(call.ms).toBeLessThan(TIMEOUT * 2);
      // other masters keep answering
      expect(await rq.request({ body: ["INCR", other] })).toEqual({ result: 1 });
      // PING stands for the whole cluster
      const ping = await timed(rq.request({ body: ["PING"] }));
      expect(ping.value).toHaveProperty("error");
      expect(ping.ms).toBeLessThan(TIMEOUT * 2);
      await expect(rq.ready(300)).rejects.toThrow(/Redis Cluster/);
    } finally {
      child.kill("SIGCONT");
    }
    await waitFor(async () => "result" in (await rq.request({ body: ["PING"] })), 5_000, "the stalled master to answer again");
    await rq.ready(2_000);
    // the command sent before the stall may have run once when the server woke up; it was not sent again
    expect(Number(await (await node(victim)).send(["GET", key]))).toBeLessThanOrEqual(1);
    expect(await rq.request(incr)).toEqual({ result: expect.any(Number) });
  });

  it("fails calls for a dead master at once, and ready() rejects naming it", async () => {
    const [, victim, healthy] = cluster.ports as [number, number, number];
    const key = `fiskal:{${tags.get(victim)!}}:dead`;
    expect(await rq.request({ body: ["INCR", key] })).toEqual({ result: 1 });

    const child = cluster.processes[1]!;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    await exited;
    await sleep(20);

    for (let i = 0; i < 5; i++) {
      const call = await timed(rq.request({ body: ["EVAL", "return redis.call('INCR', KEYS[1])", 1, key] }));
      expect(call.value).toEqual({ error: expect.stringContaining(`127.0.0.1:${victim}`) });
      expect(call.ms).toBeLessThan(TIMEOUT);
    }
    expect(await rq.request({ body: ["INCR", `fiskal:{${tags.get(healthy)!}}:dead`] })).toEqual({ result: 1 });
    const ping = await timed(rq.request({ body: ["PING"] }));
    expect(ping.value).toEqual({ error: expect.stringContaining(`127.0.0.1:${victim}`) });
    expect(ping.ms).toBeLessThan(TIMEOUT);
    const ready = await timed(errorOf(rq.ready(1_000)));
    expect(ready.value.message).toMatch(new RegExp(`127\\.0\\.0\\.1:${victim}`));
    expect(rq.lastError()).toContain(`127.0.0.1:${victim}`);

    // a requester started now cannot become ready either, and fails the dead master's calls at once
    const late = createClusterRequester(cluster.url, TIMEOUT);
    try {
      await expect(late.ready(1_000)).rejects.toThrow(/Redis Cluster/);
      const call = await timed(late.request({ body: ["INCR", key] }));
      expect(call.value).toHaveProperty("error");
      expect(call.ms).toBeLessThan(TIMEOUT);
    } finally {
      await late.close();
    }
  });
});

/** A multi-key decision whose slot is split between two masters answers TRYAGAIN: it is retried within the store timeout. */
describe("the limiter while a slot migrates", () => {
  let cluster: TestCluster;
  let topo: Topology;
  beforeAll(async () => {
    cluster = await startCluster(3);
    topo = await topology(cluster.ports[0]!);
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  /** an identity whose slot is owned by `port` and is among `slots` (default: any of that master's) */
  const identityOn = (port: number, name: string, slots?: (slot: number) => boolean): string => {
    for (let n = 1; ; n++) {
      const identity = `acct:${name}-${n}`;
      const slot = keySlot(`{${identity}}`);
      if (topo.owner[slot] === port && (!slots || slots(slot))) return identity;
    }
  };

  /**
   * The slot of `identity` marked as migrating from `source` to `target`, none of its keys moved yet:
   * the slot, the source's connection and the slot's keys.
   */
  const startMigration = async (identity: string, source: number, target: number) => {
    const slot = keySlot(`{${identity}}`);
    const src = await node(source);
    const dst = await node(target);
    await dst.send(["CLUSTER", "SETSLOT", slot, "IMPORTING", topo.idOf.get(source)!]);
    await src.send(["CLUSTER", "SETSLOT", slot, "MIGRATING", topo.idOf.get(target)!]);
    return { slot, src, keys: (await src.send(["CLUSTER", "GETKEYSINSLOT", slot, 100])) as string[] };
  };

  it("a manual migration with the account's keys split between two masters: retried until it completes, never over the limit", async () => {
    const [source, target, third] = cluster.ports as [number, number, number];
    const prefix = `t-split-${Date.now()}`;
    const { rl, events } = clusterLimiter(cluster.url, prefix, 1_000);
    try {
      const identity = identityOn(source, "split");
      const limits = { burst: 1_000, perMinute: 30, perDay: 10_000 };
      // the account at its limit
      expect(admitted(await Promise.all(Array.from({ length: 30 }, () => rl.decide({ identity, limits }))))).toBe(30);
      const { slot, src, keys } = await startMigration(identity, source, target);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      // one key moves; the others stay on the source for 300 ms: every decision meanwhile is TRYAGAIN
      expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", keys[0]!])).toBe("OK");
      const during = Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          await sleep(i * 5);
          return rl.decide({ identity, limits });
        }),
      );
      await sleep(300);
      expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", ...keys.slice(1)])).toBe("OK");
      for (const p of [target, source, third]) await (await node(p)).send(["CLUSTER", "SETSLOT", slot, "NODE", topo.idOf.get(target)!]);
      const decisions = await during;
      expect(admitted(decisions)).toBe(0);
      expect(decisions.every((d) => !d.degraded)).toBe(true);
      expect(events).not.toContain("fallback");
      // on the new master, still full
      const minute = (await rl.peek({ identity, limits })).find((w) => w.name === "minute")!;
      expect(minute.remaining).toBe(0);
    } finally {
      await rl.close();
    }
  });

  it("a split that outlasts the store timeout degrades that slot alone, never over the limit, and returns when the migration completes", async () => {
    const [source, target, third] = cluster.ports as [number, number, number];
    topo = await topology(source);
    // The store timeout: long enough that a neighbour's decision on a busy host never times out (its
    // exact decisions are asserted below; 600 ms was not enough while the whole suite ran on two
    // cores), short enough to outlast: the split itself lasts until the test ends it.
    const { rl, events } = clusterLimiter(cluster.url, `t-longsplit-${Date.now()}`, 1_200);
    let completeSplit: (() => Promise<void>) | undefined;
    try {
      const identity = identityOn(source, "longsplit");
      const neighbour = identityOn(source, "neighbour", (slot) => slot !== keySlot(`{${identity}}`));
      const limits = { burst: 1_000, perMinute: 30, perDay: 10_000 };
      const decide = (who: string, n: number) => Promise.all(Array.from({ length: n }, () => rl.decide({ identity: who, limits })));
      expect(admitted(await decide(identity, 30))).toBe(30);
      expect(admitted(await decide(neighbour, 10))).toBe(10);
      const { slot, src, keys } = await startMigration(identity, source, target);
      expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", keys[0]!])).toBe("OK");
      // whatever fails below, the slot ends on the target, so the next test finds a stable cluster
      completeSplit = async () => {
        const left = (await src.send(["CLUSTER", "GETKEYSINSLOT", slot, 100])) as string[];
        if (left.length > 0) await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", ...left]);
        for (const p of [target, source, third]) await (await node(p)).send(["CLUSTER", "SETSLOT", slot, "NODE", topo.idOf.get(target)!]);
      };

      // split for longer than the timeout: the slot is decided locally, and the account stays full.
      // Once the first TRYAGAIN has come back, the event loop is held past the deadline, as on a busy
      // host where the retries run late: still the split of that slot, not a master that is down.
      const pending = decide(identity, 20);
      await sleep(300);
      const held = performance.now() + 1_000;
      while (performance.now() < held) {
        // a busy host
      }
      const during = await pending;
      expect(during.every((d) => d.degraded && !d.allowed)).toBe(true);
      expect(events).toContain("fallback");
      // another account of the same master is still decided on it, exactly
      const other = await decide(neighbour, 30);
      expect(other.every((d) => !d.degraded)).toBe(true);
      expect(admitted(other)).toBe(20);

      expect(await src.send(["MIGRATE", "127.0.0.1", target, "", 0, 5_000, "KEYS", ...keys.slice(1)])).toBe("OK");
      for (const p of [target, source, third]) await (await node(p)).send(["CLUSTER", "SETSLOT", slot, "NODE", topo.idOf.get(target)!]);
      completeSplit = undefined;
      await waitFor(() => !rl.fallbackActive(), 5_000, "the slot to be exact again");
      const after = await decide(identity, 10);
      expect(after.every((d) => !d.degraded && !d.allowed)).toBe(true);
    } finally {
      await completeSplit?.();
      await rl.close();
    }
  });

  it("a real redis-cli --cluster reshard under load, with accounts at their limit: 0 admitted", async () => {
    const [source, target] = cluster.ports as [number, number, number];
    const prefix = `t-reshard-${Date.now()}`;
    const rl = createRateLimiter({ store: { kind: "cluster", url: cluster.url }, prefix, redisTimeoutMs: 1_000 });
    try {
      // reshard moves the source's lowest slots first: accounts on the first 300 of them
      const fresh = await topology(source);
      topo = fresh;
      const sourceSlots = fresh.owner.flatMap((p, slot) => (p === source ? [slot] : []));
      const moved = new Set(sourceSlots.slice(0, 300));
      const identities = Array.from({ length: 20 }, (_, i) => identityOn(source, `reshard${i}`, (slot) => moved.has(slot)));
      const limits = { burst: 1_000, perMinute: 20, perDay: 10_000 };
      for (const identity of identities) {
        expect(admitted(await Promise.all(Array.from({ length: 20 }, () => rl.decide({ identity, limits }))))).toBe(20);
      }
      let done = false;
      const load = (async () => {
        const all: Decision[] = [];
        while (!done) all.push(...(await Promise.all(identities.map((identity) => rl.decide({ identity, limits })))));
        return all;
      })();
      // one key per MIGRATE, so an account's keys are split between the two masters while its slot moves
      try {
        await redisCli([
          "--cluster", "reshard", `127.0.0.1:${source}`,
          "--cluster-from", fresh.idOf.get(source)!, "--cluster-to", fresh.idOf.get(target)!,
          "--cluster-slots", "300", "--cluster-yes", "--cluster-pipeline", "1",
        ]);
      } finally {
        // a failed reshard must end the load too, or it runs until the process has no memory left
        done = true;
      }
      const decisions = await load;
      expect(decisions.length).toBeGreaterThan(identities.length * 5);
      expect(admitted(decisions)).toBe(0);
      const after = await topology(source);
      for (const identity of identities) {
        expect(after.owner[keySlot(`{${identity}}`)]).toBe(target);
        expect((await rl.peek({ identity, limits })).find((w) => w.name === "minute")!.remaining).toBe(0);
      }
    } finally {
      await rl.close();
    }
  });
});

/**
 * One master lost, with cluster-require-full-coverage no: the other masters keep serving their
 * slots, and the limiter degrades only the lost master's accounts.
 */
describe("the limiter when a master is lost", () => {
  let cluster: TestCluster;
  beforeAll(async () => {
    cluster = await startCluster(3, { config: ["--cluster-require-full-coverage", "no", "--cluster-node-timeout", "1000"] });
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("keeps accounts on the other shards exact throughout, and degrades only the lost shard's", async () => {
    const topo = await topology(cluster.ports[0]!);
    const [healthyA, victim, healthyB] = cluster.ports as [number, number, number];
    const { rl, events } = clusterLimiter(cluster.url, `t-lost-${Date.now()}`, 500);
    let n = 0;
    const onMaster = (port: number): string => {
      for (;;) {
        const identity = `acct:lost-${++n}`;
        if (topo.owner[keySlot(`{${identity}}`)] === port) return identity;
      }
    };
    const limits = { burst: 50, perMinute: 10_000, perDay: 100_000 };
    /** 200 at once on a fresh burst of 50, for a fresh account on `port` */
    const storm = async (port: number): Promise<Decision[]> => {
      const identity = onMaster(port);
      return Promise.all(Array.from({ length: 200 }, () => rl.decide({ identity, limits })));
    };
    const spanOf = (ds: Decision[]) => Math.max(...ds.map((d) => d.decidedAt)) - Math.min(...ds.map((d) => d.decidedAt));
    try {
      for (const port of [healthyA, victim, healthyB]) expect(admitted(await storm(port))).toBe(50);
      // an account of the lost shard at its minute limit
      const full = onMaster(victim);
      const minute = { burst: 1_000, perMinute: 30, perDay: 100_000 };
      expect(admitted(await Promise.all(Array.from({ length: 40 }, () => rl.decide({ identity: full, limits: minute }))))).toBe(30);
      const child = cluster.processes[1]!;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;

      // the lost shard's accounts are decided locally, at most the limit (one instance: all of it)
      const lost = await storm(victim);
      expect(lost.every((d) => d.degraded)).toBe(true);
      expect(admitted(lost)).toBeLessThanOrEqual(50);
      expect(events).toContain("fallback");
      // what the store had counted stays counted: the full account is refused locally too
      const stillFull = await Promise.all(Array.from({ length: 20 }, () => rl.decide({ identity: full, limits: minute })));
      expect(stillFull.every((d) => d.degraded && !d.allowed)).toBe(true);

      // the others stay exact, at once and after the cluster has marked the master as failed
      const checks: Decision[][] = [];
      const until = Date.now() + 3_000;
      while (Date.now() < until) {
        for (const port of [healthyA, healthyB]) checks.push(await storm(port));
        await storm(victim);
        await sleep(200);
      }
      const info = String(await (await node(healthyA)).send(["CLUSTER", "INFO"]));
      expect(info).toContain("cluster_state:ok");
      expect(String(await (await node(healthyA)).send(["CLUSTER", "NODES"]))).toMatch(/master,fail/);
      for (const ds of checks) {
        expect(ds.every((d) => !d.degraded)).toBe(true);
        if (spanOf(ds) < 1_000) expect(admitted(ds)).toBe(50);
      }
    } finally {
      await rl.close();
    }
  });
});

const admitted = (ds: Decision[]) => ds.filter((d) => d.allowed).length;
