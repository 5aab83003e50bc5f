// Bearer API-key authentication: SHA-256 lookup with a short cache keyed by hash (never by the key).
import { hashApiKey, type Db } from "@fiskal/db";
import { limitsFor, type PlanName } from "@fiskal/limits";
import type { Principal } from "./trpc.ts";

export type AuthOutcome =
  | { kind: "valid"; principal: Principal }
  | { kind: "missing" | "malformed" | "unknown" | "revoked" };

export const AUTH_MESSAGES: Record<Exclude<AuthOutcome["kind"], "valid">, string> = {
  missing: "Nedostaje API ključ. Pošaljite zaglavlje Authorization: Bearer <ključ>.",
  malformed: "API ključ nije ispravnog oblika (očekuje se fsk_test_… ili fsk_live_…).",
  unknown: "API ključ nije poznat.",
  revoked: "API ključ je opozvan.",
};

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
  expires: number;
}

export function createAuthenticator(opts: { db: Db; ttlMs?: number; maxEntries?: number; now?: () => number }): Authenticator {
  const ttl = opts.ttlMs ?? 5_000;
  const max = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry>>();
  // Bumped on invalidation so a lookup that started before it cannot repopulate stale data.
  let generation = 0;

  async function load(hash: string): Promise<Entry> {
    const startedAt = generation;
    const row = await opts.db.apiKey.findUnique({
      where: { hash },
      select: {
        id: true,
        revokedAt: true,
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
    let entry: Entry;
    if (!row) entry = { outcome: { kind: "unknown" }, accountId: null, expires: now() + ttl };
    else if (row.revokedAt) entry = { outcome: { kind: "revoked" }, accountId: row.account.id, expires: now() + ttl };
    else {
      const plan = row.account.plan as PlanName;
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
        expires: now() + ttl,
      };
    }
    if (startedAt === generation) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(hash, entry);
    }
    return entry;
  }

  return {
    async authenticate(authorization) {
      if (!authorization) return { kind: "missing" };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match || !KEY_PATTERN.test(match[1]!)) return { kind: "malformed" };
      const hash = hashApiKey(match[1]!);
      const hit = cache.get(hash);
      if (hit && hit.expires > now()) return hit.outcome;
      // A lookup started before an invalidation must not answer requests that arrive after it.
      const slot = `${generation}:${hash}`;
      let pending = inflight.get(slot);
      if (!pending) {
        pending = load(hash).finally(() => inflight.delete(slot));
        inflight.set(slot, pending);
      }
      return (await pending).outcome;
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
