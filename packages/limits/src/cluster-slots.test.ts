/** The slot map on its own (cluster-slots.ts): CLUSTER SLOTS replies applied, reloads, retired nodes. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { keySlot } from "./cluster-keys.ts";
import { RedisReplyError, type Reply } from "./resp.ts";
import { fakeNodes } from "./test-cluster-nodes.ts";

const THREE_MASTERS: Reply = [
  [0, 5460, ["10.0.0.1", 7000, "id-1"], ["10.0.0.4", 7003, "replica"]],
  [5461, 10922, ["", 7001, "id-2"]],
  [10923, 16383, ["?", 7002, "id-3"]],
];

afterEach(() => {
  vi.useRealTimers();
});

describe("SlotMap.apply", () => {
  it("maps each range to its master; an unknown endpoint is the node that answered", () => {
    const { slots } = fakeNodes("redis+cluster://seed:7000", 100, () => null);
    const seed = slots.nodeAt("seed", 7000);
    expect(slots.known).toBe(false);
    slots.apply(THREE_MASTERS, seed);
    expect(slots.known).toBe(true);
    expect(slots.ownerOf(0)?.id).toBe("10.0.0.1:7000");
    expect(slots.ownerOf(5460)?.id).toBe("10.0.0.1:7000");
    expect(slots.ownerOf(5461)?.id).toBe("seed:7001");
    expect(slots.ownerOf(16_383)?.id).toBe("seed:7002");
    expect(slots.masters.map((n) => n.id)).toEqual(["10.0.0.1:7000", "seed:7001", "seed:7002"]);
    const key = "rl:{acct-1}:m";
    const slot = keySlot(key);
    expect(slots.shardOf(key)).toBe(slots.ownerOf(slot)?.id);
  });

  it("skips ranges it cannot read, leaves their slots unserved, and names IPv6 nodes in brackets", () => {
    const { slots } = fakeNodes("redis+cluster://seed:7000", 100, () => null);
    slots.apply(
      [
        [0, 99, ["::1", 7000]],
        [100, 199, ["h", 70_000]],
        [200, 299, "not a node"],
        ["300", 399, ["h", 7001]],
        [400],
        "junk",
        [16_000, 20_000, ["h", 7002]],
      ],
      slots.nodeAt("seed", 7000),
    );
    expect(slots.ownerOf(0)?.id).toBe("[::1]:7000");
    expect(slots.ownerOf(100)).toBeUndefined();
    expect(slots.ownerOf(250)).toBeUndefined();
    expect(slots.ownerOf(350)).toBeUndefined();
    expect(slots.ownerOf(16_383)?.id).toBe("h:7002");
    expect(keySlot("foo")).toBe(12_182);
    expect(slots.shardOf("rl:{foo}:m")).toBe("slot:12182");
    expect(slots.masters.map((n) => n.id)).toEqual(["[::1]:7000", "h:7002"]);
  });

  it("refuses a reply that is not a list, or names no slot, and keeps the map it had", () => {
    const { slots } = fakeNodes("redis+cluster://seed:7000", 100, () => null);
    const seed = slots.nodeAt("seed", 7000);
    expect(() => slots.apply("OK", seed)).toThrow(/unexpected reply to CLUSTER SLOTS/);
    expect(() => slots.apply([], seed)).toThrow(/seed:7000 reports no slots assigned/);
    expect(slots.known).toBe(false);
    slots.apply(THREE_MASTERS, seed);
    expect(() => slots.apply([[0, 1, ["h", 0]]], seed)).toThrow(/no slots assigned/);
    expect(slots.ownerOf(0)?.id).toBe("10.0.0.1:7000");
  });

  it("retires the nodes a new map leaves out, closing them only after the commands sent to them had their time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    const { slots, closed } = fakeNodes("redis+cluster://seed:7000", 100, () => null);
    const seed = slots.nodeAt("seed", 7000);
    slots.apply(THREE_MASTERS, seed);
    const first = slots.nodeAt("10.0.0.1", 7000);
    slots.apply([[0, 16_383, ["10.0.0.2", 7000]]], seed);
    expect(slots.masters.map((n) => n.id)).toEqual(["10.0.0.2:7000"]);
    // connect timeout (500 ms at least) + the command timeout
    await vi.advanceTimersByTimeAsync(599);
    expect(closed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(closed.sort()).toEqual(["10.0.0.1:7000", "seed:7000", "seed:7001", "seed:7002"]);
    expect(slots.nodeAt("10.0.0.1", 7000)).not.toBe(first);
  });

  it("records a MOVED slot's new owner, once the map is known and for a slot in range only", () => {
    const { slots } = fakeNodes("redis+cluster://seed:7000", 100, () => null);
    const seed = slots.nodeAt("seed", 7000);
    const other = slots.nodeAt("other", 7005);
    slots.moved(5, other);
    expect(slots.ownerOf(5)).toBeUndefined();
    slots.apply(THREE_MASTERS, seed);
    slots.moved(5, other);
    slots.moved(16_384, other);
    slots.moved(Number.NaN, other);
    expect(slots.ownerOf(5)).toBe(other);
    expect(slots.ownerOf(6)?.id).toBe("10.0.0.1:7000");
  });
});

describe("SlotMap.refresh", () => {
  it("asks the seed nodes in order until one answers, and keeps every node's failure when none does", async () => {
    let up = false;
    const { slots, sent } = fakeNodes("redis+cluster://s1:1,s2:2", 100, (id) => {
      if (id === "s2:2" && up) return [[0, 16_383, ["m", 9]]];
      throw new Error(id === "s1:1" ? "connection refused" : "CLUSTERDOWN The cluster is down");
    });
    await expect(slots.refresh()).rejects.toThrow(
      "no Redis Cluster node answered CLUSTER SLOTS (s1:1: connection refused; s2:2: CLUSTERDOWN The cluster is down)",
    );
    expect(slots.loadError).toMatch(/^no Redis Cluster node answered/);
    expect(slots.lastError()).toBe(slots.loadError);
    up = true;
    await slots.refresh();
    expect(slots.loadError).toBeUndefined();
    expect(slots.ownerOf(0)?.id).toBe("m:9");
    expect(sent).toEqual(["s1:1 CLUSTER SLOTS", "s2:2 CLUSTER SLOTS", "s1:1 CLUSTER SLOTS", "s2:2 CLUSTER SLOTS"]);
  });

  it("asks the known masters before the seed nodes, and joins a reload under way", async () => {
    const { slots, sent } = fakeNodes("redis+cluster://seed:1", 100, (id) => {
      if (id === "m:9") throw new RedisReplyError("ERR busy");
      return [[0, 16_383, ["m", 9]]];
    });
    await slots.refresh();
    sent.length = 0;
    const a = slots.refresh();
    expect(slots.refresh()).toBe(a);
    await a;
    expect(sent).toEqual(["m:9 CLUSTER SLOTS", "seed:1 CLUSTER SLOTS"]);
  });

  it("reloads in the background at most every 250 ms, and not at all once closed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
    const { slots, sent } = fakeNodes("redis+cluster://seed:1", 100, () => [[0, 16_383, ["seed", 1]]]);
    await slots.refresh();
    slots.scheduleRefresh();
    slots.scheduleRefresh();
    await vi.advanceTimersByTimeAsync(249);
    expect(sent).toEqual(["seed:1 CLUSTER SLOTS"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual(["seed:1 CLUSTER SLOTS", "seed:1 CLUSTER SLOTS"]);
    // the last reload was long enough ago: at once
    await vi.advanceTimersByTimeAsync(300);
    slots.scheduleRefresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(3);
    await slots.close();
    slots.scheduleRefresh();
    await expect(slots.refresh()).rejects.toThrow(/closed/);
    await expect(slots.ready(100)).rejects.toThrow(/closed/);
    expect(sent).toHaveLength(3);
  });
});
