/**
 * An in-process Redis for the single-process trial and for the fallback limiter: a `Requester`
 * of @upstash/redis that runs the exact @upstash/ratelimit window scripts in JavaScript.
 * Each script runs synchronously, so it is as atomic here as Lua is in Redis.
 */
import { createHash } from "node:crypto";
import type { Requester, UpstashRequest, UpstashResponse } from "@upstash/redis";

type Args = (string | number)[];
type ScriptImpl = (store: MemoryKV, keys: string[], args: Args) => unknown;

interface Entry {
  value: number;
  expiresAt: number | null;
}

class MemoryKV {
  private readonly data = new Map<string, Entry>();
  private lastSweep = Date.now();

  constructor(private readonly now: () => number) {}

  get(key: string): number | null {
    const e = this.data.get(key);
    if (!e) return null;
    if (e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.data.delete(key);
      return null;
    }
    return e.value;
  }

  incrBy(key: string, by: number): number {
    const current = this.get(key);
    const value = (current ?? 0) + by;
    const prev = this.data.get(key);
    this.data.set(key, { value, expiresAt: current === null ? null : (prev?.expiresAt ?? null) });
    this.sweepSometimes();
    return value;
  }

  pexpire(key: string, ms: number): number {
    const e = this.data.get(key);
    if (!e || this.get(key) === null) return 0;
    e.expiresAt = this.now() + ms;
    return 1;
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
    const now = this.now();
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [k, e] of this.data) if (e.expiresAt !== null && e.expiresAt <= now) this.data.delete(k);
  }
}

const num = (v: string | number | undefined): number => Number(v);

function effectiveLimit(kv: MemoryKV, dynamicLimitKey: string | undefined, tokens: number): number {
  if (dynamicLimitKey) {
    const dynamic = kv.get(dynamicLimitKey);
    if (dynamic !== null) return dynamic;
  }
  return tokens;
}

/* JavaScript twins of the single-region scripts of @upstash/ratelimit 2.2.0, keyed by their SHA-1. */
const SCRIPTS: Record<string, { name: string; run: ScriptImpl }> = {
  b2efc02798c8e9b471a10f9b1d5745db89923ff3: {
    name: "fixedWindow.limit",
    run: (kv, [key, dyn], [tokens, window, incrementBy]) => {
      const limit = effectiveLimit(kv, dyn, num(tokens));
      const inc = num(incrementBy);
      const r = kv.incrBy(key!, inc);
      if (r === inc) kv.pexpire(key!, num(window));
      return [r, limit];
    },
  },
  "823cb2a5a902d69681244f5e28e5ebb8f2a89edd": {
    name: "fixedWindow.getRemaining",
    run: (kv, [key, dyn], [tokens]) => {
      const limit = effectiveLimit(kv, dyn, num(tokens));
      return [limit - (kv.get(key!) ?? 0), limit];
    },
  },
  "74740bb3d7792848093cdef586b6b6037c455fd6": {
    name: "slidingWindow.limit",
    run: (kv, [currentKey, previousKey, dyn], [tokens, now, window, incrementBy]) => {
      const limit = effectiveLimit(kv, dyn, num(tokens));
      const inc = num(incrementBy);
      const w = num(window);
      const current = kv.get(currentKey!) ?? 0;
      const previous = Math.floor((1 - (num(now) % w) / w) * (kv.get(previousKey!) ?? 0));
      if (inc > 0 && previous + current >= limit) return [-1, limit];
      const newValue = kv.incrBy(currentKey!, inc);
      if (newValue === inc) kv.pexpire(currentKey!, w * 2 + 1000);
      return [limit - (newValue + previous), limit];
    },
  },
  "7ca36169e0fc9caedd81b4eef8e99854c157f9b5": {
    name: "slidingWindow.getRemaining",
    run: (kv, [currentKey, previousKey, dyn], [tokens, now, window]) => {
      const limit = effectiveLimit(kv, dyn, num(tokens));
      const w = num(window);
      const current = kv.get(currentKey!) ?? 0;
      const previous = Math.floor((1 - (num(now) % w) / w) * (kv.get(previousKey!) ?? 0));
      return [limit - (previous + current), limit];
    },
  },
};

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");

export interface MemoryRequester extends Requester {
  /** number of keys held, expired ones included until swept */
  size(): number;
}

export function createMemoryRequester(now: () => number = Date.now): MemoryRequester {
  const kv = new MemoryKV(now);

  const runScript = (hash: string, rest: Args): unknown => {
    const script = SCRIPTS[hash];
    if (!script) throw new Error(`NOSCRIPT No matching script ${hash} in the in-memory store`);
    const numKeys = num(rest[0]);
    const keys = rest.slice(1, 1 + numKeys).map(String);
    return script.run(kv, keys, rest.slice(1 + numKeys));
  };

  const execute = (command: string, args: Args): unknown => {
    switch (command) {
      case "evalsha":
        return runScript(String(args[0]), args.slice(1));
      case "eval":
        return runScript(sha1(String(args[0])), args.slice(1));
      case "get": {
        const v = kv.get(String(args[0]));
        return v === null ? null : String(v);
      }
      case "mget":
        return args.map((k) => {
          const v = kv.get(String(k));
          return v === null ? null : String(v);
        });
      case "incrby":
        return kv.incrBy(String(args[0]), num(args[1]));
      case "decrby":
        return kv.incrBy(String(args[0]), -num(args[1]));
      case "pexpire":
        return kv.pexpire(String(args[0]), num(args[1]));
      case "del":
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
