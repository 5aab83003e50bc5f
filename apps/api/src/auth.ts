// Bearer API-key authentication: SHA-256 lookup with a short cache keyed by hash (never by the key).
import { hashApiKey } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { limitsFor } from "@fiskal/limits";
import type { Principal } from "./principal.ts";

export type AuthOutcome =
  | { kind: "valid"; principal: Principal }
  | { kind: "missing" | "malformed" | "unknown" }
  | { kind: "revoked" | "expired"; accountId: string };

/**
 * What a client is told. An unknown, a revoked and an expired key get the same words, so that a guesser cannot
 * learn that a key once existed; the difference stays in the logs and in
 * `fiskal_auth_failures_total{reason}`.
 */
const NOT_VALID = "API ključ nije valjan: nije poznat ili je opozvan. Provjerite ključ u portalu.";
export const AUTH_MESSAGES: Record<Exclude<AuthOutcome["kind"], "valid">, string> = {
  missing: "Nedostaje API ključ. Pošaljite zaglavlje Authorization: Bearer <ključ>.",
  malformed: "API ključ nije ispravnog oblika (očekuje se fsk_test_… ili fsk_live_…).",
  unknown: NOT_VALID,
  revoked: NOT_VALID,
  expired: NOT_VALID,
};

/**
 * The database could not be asked about a well-formed key (unreachable, or no answer in time). The
 * key is neither valid nor invalid as far as we know. `cached` is what an expired cache entry last
 * said about it, if anything: enough to describe the account's windows, never to admit the request.
 */
export class AuthUnavailableError extends Error {
  override name = "AuthUnavailableError";
  constructor(
    readonly cached: AuthOutcome | null,
    options?: { cause?: unknown },
  ) {
    super("API keys cannot be looked up: the database is unavailable", options);
  }
}

const KEY_PATTERN = /^fsk_(test|live)_[A-Za-z0-9]{32}$/;

export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
  /** Drops cached entries of an account (plan change, key revoked); called on database notifications. */
  invalidateAccount(accountId: string): void;
  clear(): void;
  readonly size: number;
}

interface Entry {
  outcome: AuthOutcome;
  accountId: string | null;
  /** When the cache entry lapses: the TTL, or sooner the key's own expiry. */
  expires: number;
  /** The key's expiry instant (epoch ms), for a valid key that has one. */
  keyExpires: number | null;
}

export function createAuthenticator(opts: {
  db: Db;
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  /** A key lookup the database has not answered by then counts as the database being unavailable. */
  lookupTimeoutMs?: number;
}): Authenticator {
  const ttl = opts.ttlMs ?? 5_000;
  const lookupTimeoutMs = opts.lookupTimeoutMs ?? 5_000;
  const max = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry>>();
  // Bumped on invalidation so a lookup that started before it cannot repopulate stale data.
  let generation = 0;

  function findKey(hash: string) {
    return opts.db.apiKey.findUnique({
      where: { hash },
      select: {
        id: true,
        revokedAt: true,
        expiresAt: true,
        account: {
          select: {
            id: true,
            plan: true,
            customPerMinute: true,
            customPerDay: true,
            customBurst: true,
            customEndpointLimits: true,
            limitsVersion: true,
          },
        },
      },
    });
  }

  async function load(hash: string): Promise<Entry> {
    const startedAt = generation;
    let row: Awaited<ReturnType<typeof findKey>>;
    try {
      row = await withTimeout(findKey(hash), lookupTimeoutMs);
    } catch (err) {
      // Expired entries stay in the cache until replaced: what one last said names the account.
      throw new AuthUnavailableError(cache.get(hash)?.outcome ?? null, { cause: err });
    }
    let entry: Entry;
    const at = now();
    const keyExpires = row?.expiresAt?.getTime() ?? null;
    if (!row) entry = { outcome: { kind: "unknown" }, accountId: null, expires: at + ttl, keyExpires: null };
    else if (row.revokedAt) entry = { outcome: { kind: "revoked", accountId: row.account.id }, accountId: row.account.id, expires: at + ttl, keyExpires: null };
    else if (keyExpires !== null && keyExpires <= at) {
      entry = { outcome: { kind: "expired", accountId: row.account.id }, accountId: row.account.id, expires: at + ttl, keyExpires: null };
    } else {
      const plan = row.account.plan;
      entry = {
        outcome: {
          kind: "valid",
          principal: {
            accountId: row.account.id,
            apiKeyId: row.id,
            plan,
            limits: limitsFor({ ...row.account, plan }),
            limitsVersion: row.account.limitsVersion,
          },
        },
        accountId: row.account.id,
        // A key with an expiry stops working at that instant, not at the end of a cache period.
        expires: keyExpires === null ? at + ttl : Math.min(at + ttl, keyExpires),
        keyExpires,
      };
    }
    if (startedAt === generation) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(hash, entry);
    }
    return entry;
  }

  /** A lookup of the key in the background, unless one is under way; the requests that need it share it. */
  function refresh(hash: string): void {
    const slot = `${generation}:${hash}`;
    if (inflight.has(slot)) return;
    const pending = load(hash).finally(() => inflight.delete(slot));
    inflight.set(slot, pending);
    pending.catch(() => {});
  }

  return {
    async authenticate(authorization) {
      if (!authorization) return { kind: "missing" };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match || !KEY_PATTERN.test(match[1]!)) return { kind: "malformed" };
      const hash = hashApiKey(match[1]!);
      const hit = cache.get(hash);
      if (hit && hit.expires > now()) {
        // In the last fifth of its time the entry is looked up again in the background, so that a
        // key in steady use does not wait for the database each time its entry lapses (at 1,000
        // requests/s over 100 keys, 2 % of the requests did). No entry answers past its time: the
        // bound on how long a missed invalidation lasts stays the TTL. A failed lookup changes nothing.
        if (hit.expires - now() < ttl / 5) refresh(hash);
        return hit.outcome;
      }
      if (hit?.keyExpires != null && hit.keyExpires <= now() && hit.outcome.kind === "valid") {
        // Expired since it was cached: answered without asking the database again.
        const accountId = hit.outcome.principal.accountId;
        const expired: Entry = { outcome: { kind: "expired", accountId }, accountId, expires: now() + ttl, keyExpires: null };
        cache.set(hash, expired);
        return expired.outcome;
      }
      // A lookup started before an invalidation must not answer requests that arrive after it.
      const slot = `${generation}:${hash}`;
      let pending = inflight.get(slot);
      if (!pending) {
        pending = load(hash).finally(() => inflight.delete(slot));
        inflight.set(slot, pending);
      }
      const entry = await pending;
      // A lookup that was under way when the key expired must not admit a request after it.
      if (entry.keyExpires !== null && entry.keyExpires <= now() && entry.outcome.kind === "valid") {
        return { kind: "expired", accountId: entry.outcome.principal.accountId };
      }
      return entry.outcome;
    },
    invalidateAccount(accountId) {
      generation++;
      for (const [hash, entry] of cache) if (entry.accountId === accountId || entry.accountId === null) cache.delete(hash);
    },
    clear() {
      generation++;
      cache.clear();
    },
    get size() {
      return cache.size;
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  if (!(ms > 0)) return promise;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
