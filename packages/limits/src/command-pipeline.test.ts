/**
 * The commands in flight on one connection, without a connection: what is written when, and which
 * reply goes to which command.
 */
import { describe, expect, it } from "vitest";
import { CommandPipeline } from "./command-pipeline.ts";
import { encodeCommand, RedisReplyError } from "./resp.ts";

const nextTurn = () => new Promise((r) => setImmediate(r));

describe("CommandPipeline", () => {
  it("writes the commands of one event-loop turn in one write, in order, and each later turn in its own", async () => {
    const writes: string[] = [];
    const q = new CommandPipeline((data) => (writes.push(data), true));
    void q.enqueue(["GET", "a"]);
    void q.enqueue(["EVALSHA", "x", 1, "k"]);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual([encodeCommand(["GET", "a"]) + encodeCommand(["EVALSHA", "x", 1, "k"])]);
    void q.enqueue(["PING"]);
    await nextTurn();
    expect(writes).toEqual([writes[0], encodeCommand(["PING"])]);
    expect(q.size).toBe(3);
  });

  it("hands replies to the commands in send order, error replies as rejections, also past compaction", async () => {
    const q = new CommandPipeline(() => true);
    const replies = Array.from({ length: 3_000 }, (_, i) => q.enqueue(["INCR", String(i)]));
    const failed = q.enqueue(["INCR", "s"]);
    for (let i = 0; i < 3_000; i++) expect(q.answer(i)).toBe(true);
    expect(q.answer(new RedisReplyError("ERR value is not an integer"))).toBe(true);
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 3_000 }, (_, i) => i));
    await expect(failed).rejects.toThrow(/not an integer/);
    // a reply nobody asked for
    expect(q.answer("OK")).toBe(false);
    expect(q.size).toBe(0);
  });

  it("knows when the oldest command waiting was queued", async () => {
    const q = new CommandPipeline(() => true);
    expect(q.oldestAt()).toBeUndefined();
    const before = performance.now();
    const a = q.enqueue(["PING"]);
    void q.enqueue(["PING"]);
    const at = q.oldestAt()!;
    expect(at).toBeGreaterThanOrEqual(before);
    q.answer("PONG");
    await a;
    expect(q.oldestAt()).toBeGreaterThanOrEqual(at);
  });

  it("fails every command in flight at once and drops what was not written", async () => {
    const writes: string[] = [];
    let up = false;
    const q = new CommandPipeline((data) => (up ? (writes.push(data), true) : false));
    const a = q.enqueue(["GET", "a"]);
    const b = q.enqueue(["GET", "b"]);
    await nextTurn();
    // no connection: nothing written, nothing lost yet
    expect(writes).toEqual([]);
    q.failAll(new Error("Redis connection closed"));
    await expect(a).rejects.toThrow("Redis connection closed");
    await expect(b).rejects.toThrow("Redis connection closed");
    up = true;
    q.flush();
    expect(writes).toEqual([]);
    expect(q.size).toBe(0);
  });
});
