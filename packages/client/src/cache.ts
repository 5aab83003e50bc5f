// The local KPD cache: KPD responses carry ETag and Cache-Control (private, max-age=3600), so a
// fresh entry is served without a request and a stale one is revalidated with If-None-Match.

export interface KpdCacheEntry {
  /** The response body as received. */
  body: unknown;
  /** The ETag to revalidate with; null when the response had none. */
  etag: string | null;
  /** Epoch ms until which the entry is served without asking the API. */
  freshUntil: number;
  /** Length of the response body as received (set by the client; measured when absent). */
  bytes?: number;
}

/** Any key-value store will do (a Map, Redis, a file); both methods may be async. */
export interface KpdCache {
  get(key: string): KpdCacheEntry | undefined | Promise<KpdCacheEntry | undefined>;
  set(key: string, value: KpdCacheEntry): void | Promise<void>;
}

export interface MemoryKpdCacheOptions {
  /**
   * Bound on the kept response bodies, in bytes of their JSON (default 16 MiB; the parsed objects
   * take about two to three times that in the heap). A 100-result search page is about 61 kB, a
   * single code about 1 kB.
   */
  maxBytes?: number;
  /** Bound on the number of entries (default 10,000). */
  maxEntries?: number;
}

/** Fixed cost counted per entry besides its body, key and ETag. */
const ENTRY_OVERHEAD = 64;

/**
 * In-memory cache bounded in bytes and in entries, least recently used entries dropped first; an
 * entry larger than the whole bound is not kept. `new MemoryKpdCache(5_000)` bounds the entries only
 * (and the bytes by the default).
 */
export class MemoryKpdCache implements KpdCache {
  private readonly entries = new Map<string, { entry: KpdCacheEntry; size: number }>();
  private readonly maxBytes: number;
  private readonly maxEntries: number;
  private used = 0;

  constructor(options: MemoryKpdCacheOptions | number = {}) {
    const o = typeof options === "number" ? { maxEntries: options } : options;
    this.maxEntries = o.maxEntries ?? 10_000;
    this.maxBytes = o.maxBytes ?? 16 * 1024 * 1024;
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${this.maxEntries}`);
    if (!Number.isInteger(this.maxBytes) || this.maxBytes < 1) throw new RangeError(`maxBytes must be a positive integer, got ${this.maxBytes}`);
  }

  /** Number of entries kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Bytes counted for the kept entries (bodies, keys, ETags and a fixed cost per entry). */
  get bytes(): number {
    return this.used;
  }

  get(key: string): KpdCacheEntry | undefined {
    const kept = this.entries.get(key);
    if (kept) {
      this.entries.delete(key);
      this.entries.set(key, kept);
    }
    return kept?.entry;
  }

  set(key: string, value: KpdCacheEntry): void {
    this.remove(key);
    const size = ENTRY_OVERHEAD + key.length + (value.etag?.length ?? 0) + (value.bytes ?? JSON.stringify(value.body ?? null).length);
    if (size > this.maxBytes) return;
    this.entries.set(key, { entry: value, size });
    this.used += size;
    while (this.entries.size > this.maxEntries || this.used > this.maxBytes) this.remove(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  private remove(key: string): void {
    const kept = this.entries.get(key);
    if (!kept) return;
    this.entries.delete(key);
    this.used -= kept.size;
  }
}

/** Seconds of freshness from Cache-Control; 0 when it forbids reuse without revalidation. */
export function maxAgeSeconds(cacheControl: string | null): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(",").map((d) => d.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return 0;
  for (const d of directives) {
    const m = /^max-age=(\d+)$/.exec(d);
    if (m) return Number(m[1]);
  }
  return 0;
}

/** Whether the response may be kept at all. */
export function isStorable(cacheControl: string | null): boolean {
  return !cacheControl || !/(^|,)\s*no-store\s*(,|$)/i.test(cacheControl);
}
