/**
 * The command deadline of a single-Redis requester, without a connection: when a late command
 * drops the connection.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandWatchdog } from "./command-watchdog.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("CommandWatchdog", () => {
  it("reports the oldest command once it has waited longer than the timeout, and nothing before or after stop", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] });
    let oldest: number | undefined = performance.now();
    const late: string[] = [];
    const watchdog = new CommandWatchdog(100, () => oldest, (err) => late.push(err.message));
    vi.advanceTimersByTime(100);
    expect(late).toEqual([]);
    vi.advanceTimersByTime(25);
    expect(late).toEqual(["Redis did not answer within 100 ms"]);
    oldest = undefined;
    vi.advanceTimersByTime(200);
    expect(late).toHaveLength(1);
    oldest = performance.now() - 1_000;
    watchdog.stop();
    vi.advanceTimersByTime(200);
    expect(late).toHaveLength(1);
  });

  it("checks every quarter of the timeout, at least every 5 ms", () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "performance"] });
    const start = performance.now();
    const seenAt: number[] = [];
    const watchdog = new CommandWatchdog(8, () => {
      seenAt.push(performance.now() - start);
      return undefined;
    }, () => {});
    vi.advanceTimersByTime(20);
    watchdog.stop();
    expect(seenAt).toEqual([5, 10, 15, 20]);
  });
});
