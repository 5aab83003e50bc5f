/**
 * The callers of a single-Redis requester's `ready(ms)`, without a connection: each is answered once.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ReadyWaiters } from "./ready-waiters.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("ReadyWaiters", () => {
  it("answers every waiter once: resolved, refused, or timed out with the last error", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const waiters = new ReadyWaiters();
    const first = waiters.wait(1_000, () => undefined);
    waiters.resolveAll();
    await expect(first).resolves.toBeUndefined();
    waiters.rejectAll(new Error("not asked"));

    const lost = waiters.wait(1_000, () => undefined);
    waiters.rejectAll(new Error("Redis unreachable: gone"));
    await expect(lost).rejects.toThrow("Redis unreachable: gone");

    let last = "ECONNRESET";
    const slow = waiters.wait(50, () => last);
    last = "ECONNREFUSED";
    vi.advanceTimersByTime(50);
    await expect(slow).rejects.toThrow("Redis not ready within 50 ms: ECONNREFUSED");
    waiters.resolveAll();
  });
});
