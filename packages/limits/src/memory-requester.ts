/**
 * An in-process store for the single-process trial and for the fallback limiter: a `Requester` of
 * @upstash/redis that runs the multi-window script's JavaScript twin (script.ts) on an in-memory
 * map with expiry. Each script runs synchronously, so it is as atomic here as Lua is in Redis.
 * Strings hold bytes, one character per byte (latin1), as the script's binary layouts need.
 */
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";
import { runScript, SCRIPT, SCRIPT_SHA, type ScriptStore } from "./script.ts";

type Args = (string | number)[];

interface Entry {
  value: string | Map<string, number>;
  expiresAt: number;
}

/** Strings and hashes with a time to live; `now` is fixed for the length of one script, as in Redis. */
class MemoryKV implements ScriptStore {
  private readonly data = new Map<string, Entry>();
  private lastSweep = 0;
  now = 0;

  private entry(key: string): Entry | undefined {
    const e = this.data.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now) {
      this.data.delete(key);
      return undefined;
    }
    return e;
  }

  private hash(key: string): Map<string, number> | undefined {
    const e = this.entry(key);
    if (e && typeof e.value === "string") throw new Error(`WRONGTYPE ${key} holds a string`);
    return e?.value as Map<string, number> | undefined;
  }

  get(key: string): string | null {
    const e = this.entry(key);
    if (e && typeof e.value !== "string") throw new Error(`WRONGTYPE ${key} holds a hash`);
    return e ? (e.value as string) : null;
  }

  getrange(key: string, from: number, to: number): string {
    const v = this.get(key);
    if (v === null) return "";
    return v.slice(from, to + 1);
  }

  set(key: string, value: string, pxMs: number): void {
    this.data.set(key, { value, expiresAt: this.now + pxMs });
    this.sweepSometimes();
  }

  setrange(key: string, offset: number, value: string): void {
    const e = this.entry(key);
    const old = this.get(key) ?? "";
    const padded = old.length < offset ? old + "\0".repeat(offset - old.length) : old;
    const next = padded.slice(0, offset) + value + padded.slice(offset + value.length);
    if (e) e.value = next;
    else this.data.set(key, { value: next, expiresAt: Number.POSITIVE_INFINITY });
  }

  pexpire(key: string, ms: number): void {
    const e = this.entry(key);
    if (e) e.expiresAt = this.now + ms;
  }

  exists(key: string): boolean {
    return this.entry(key) !== undefined;
  }

  type(key: string): "string" | "hash" | "none" {
    const e = this.entry(key);
    if (!e) return "none";
    return typeof e.value === "string" ? "string" : "hash";
  }

  del(key: string): void {
    this.data.delete(key);
  }

  hgetall(key: string): string[] {
    const h = this.hash(key);
    const flat: string[] = [];
    if (h) for (const [f, v] of h) flat.push(f, String(v));
    return flat;
  }

  hset(key: string, pairs: [string, number][]): void {
    let h = this.hash(key);
    if (!h) {
      h = new Map();
      this.data.set(key, { value: h, expiresAt: Number.POSITIVE_INFINITY });
    }
    for (const [f, v] of pairs) h.set(f, v);
  }

  hdel(key: string, fields: string[]): void {
    const h = this.hash(key);
    if (!h) return;
    for (const f of fields) h.delete(f);
    if (h.size === 0) this.data.delete(key);
  }

  hincrby(key: string, field: string, by: number): void {
    this.hset(key, [[field, (this.hash(key)?.get(field) ?? 0) + by]]);
  }

  delMany(keys: string[]): number {
    let n = 0;
    for (const k of keys) if (this.entry(k) !== undefined && this.data.delete(k)) n++;
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
        return kv.delMany(args.map(String));
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
