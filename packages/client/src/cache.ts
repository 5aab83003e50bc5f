// The local KPD cache: KPD responses carry ETag and Cache-Control (private, max-age=3600), so a
// fresh entry is served without a request and a stale one is revalidated with If-None-Match.

export interface KpdCacheEntry {
  /** The response body as received. */
  body: unknown;
  /** The ETag to revalidate with; null when the response had none. */
  etag: string | null;
  /** Epoch ms until which the entry is served without asking the API. */
  freshUntil: number;
}

/** Any key-value store will do (a Map, localStorage, Redis); both methods may be async. */
export interface KpdCache {
  get(key: string): KpdCacheEntry | undefined | Promise<KpdCacheEntry | undefined>;
  set(key: string, value: KpdCacheEntry): void | Promise<void>;
}

/** In-memory cache, least recently used entries dropped beyond `maxEntries` (default 10,000). */
export class MemoryKpdCache implements KpdCache {
  private readonly entries = new Map<string, KpdCacheEntry>();
  constructor(private readonly maxEntries = 10_000) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): KpdCacheEntry | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: KpdCacheEntry): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear(): void {
    this.entries.clear();
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
