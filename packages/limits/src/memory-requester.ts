/**
 * An in-process store for the single-process trial and for the fallback limiter: a `Requester` of
 * @upstash/redis that runs the multi-window script's JavaScript twin (script.ts) on an in-memory
 * map with expiry. Each script runs synchronously, so it is as atomic here as Lua is in Redis.
 */
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { runScript, SCRIPT, SCRIPT_SHA, type ScriptStore } from "./script.ts";

type Args = (string | number)[];

interface Entry {
  value: string;
  expiresAt: number;
}

/** Strings with a time to live; `now` is fixed for the length of one script, as in Redis. */
class MemoryKV implements ScriptStore {
  private readonly data = new Map<string, Entry>();
  private lastSweep = 0;
  now = 0;

  get(key: string): string | null {
    const e = this.data.get(key);
    if (!e) return null;
    if (e.expiresAt <= this.now) {
      this.data.delete(key);
      return null;
    }
    return e.value;
  }

  set(key: string, value: string, pxMs: number): void {
    this.data.set(key, { value, expiresAt: this.now + pxMs });
    this.sweepSometimes();
  }

  setRange(key: string, offset: number, value: string): void {
    const e = this.data.get(key);
    if (!e) throw new Error(`ERR setRange on a missing key ${key}`);
    const v = e.value.length < offset ? e.value.padEnd(offset, "\0") : e.value;
    e.value = v.slice(0, offset) + value + v.slice(offset + value.length);
  }

  pexpire(key: string, ms: number): void {
    const e = this.data.get(key);
    if (e) e.expiresAt = this.now + ms;
  }

  del(keys: string[]): number {
    let n = 0;
    for (const k of keys) if (this.get(k) !== null && this.data.delete(k)) n++;
    return n;
  }

  size(): number {
    return this.data.size;
  }

  /** Expired keys are dropped when read; this bounds memory for keys never read again. */
  private sweepSometimes(): void {
    if (this.now - this.lastSweep < 10_000) return;
    this.lastSweep = this.now;
    for (const [k, e] of this.data) if (e.expiresAt <= this.now) this.data.delete(k);
  }
}

export interface MemoryRequester extends Requester {
  /** number of keys held, expired ones included until swept */
  size(): number;
}

export function createMemoryRequester(clock: () => number = Date.now): MemoryRequester {
  const kv = new MemoryKV();

  const runScriptCommand = (rest: Args): unknown => {
    const numKeys = Number(rest[0]);
    const keys = rest.slice(1, 1 + numKeys).map(String);
    kv.now = clock();
    return runScript(kv, keys, rest.slice(1 + numKeys), kv.now);
  };

  const execute = (command: string, args: Args): unknown => {
    switch (command) {
      case "evalsha":
        if (String(args[0]) !== SCRIPT_SHA) throw new Error(`NOSCRIPT No matching script ${String(args[0])} in the in-memory store`);
        return runScriptCommand(args.slice(1));
      case "eval":
        if (String(args[0]) !== SCRIPT) throw new Error("ERR the in-memory store runs only the rate-limit script");
        return runScriptCommand(args.slice(1));
      case "get":
        kv.now = clock();
        return kv.get(String(args[0]));
      case "del":
        kv.now = clock();
        return kv.del(args.map(String));
      case "ping":
        return "PONG";
      default:
        throw new Error(`ERR command '${command}' is not supported by the in-memory store`);
    }
  };

  return {
    size: () => kv.size(),
    request: async <TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> => {
      if (req.path && req.path.length > 0) return { error: "ERR pipelines are not supported by the in-memory store" };
      const [command, ...args] = req.body as Args;
      try {
        return { result: execute(String(command).toLowerCase(), args) as TResult };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
  };
}
