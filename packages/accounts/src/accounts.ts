import { hash as digest, randomBytes } from "node:crypto";
import { hash as argon2Hash, verify as argon2Verify, type Algorithm } from "@node-rs/argon2";
import { isValidOib } from "@fiskal/fiscal";
import { CustomLimitsBounds, describeLimitIssues, PLAN_NAMES, type CustomLimits } from "@fiskal/limits";
import { Prisma, type Account, type Db, type Plan } from "@fiskal/db";

/** Custom (Enterprise) limits: the schema and its bounds live in @fiskal/limits (plans.ts). */
export type { CustomLimits } from "@fiskal/limits";

/** Channel on which account changes are announced so every API instance drops its cached view at once. */
export const INVALIDATION_CHANNEL = "fiskal_invalidate";

async function announceAccountChange(db: Db | Prisma.TransactionClient, accountId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${INVALIDATION_CHANNEL}, ${JSON.stringify({ accountId })})`;
}

/** Thrown for arguments that can never succeed (a programming or operator error); nothing is written. */
export class DbInputError extends Error {
  override name = "DbInputError";
}

const PLANS: readonly Plan[] = PLAN_NAMES;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_RANDOM_CHARS = 32;
const KEY_PREFIX_CHARS = 13;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// @node-rs/argon2 declares Algorithm as a const enum, which isolated modules cannot read at run time.
const ARGON2ID = 2 as Algorithm;

/** Uniform base62 characters: bytes ≥ 248 are rejected so that `% 62` carries no bias. */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function hashApiKey(key: string): string {
  // The one-shot digest: the same hex SHA-256, a third of createHash's cost (every API request hashes its key).
  return digest("sha256", key, "hex");
}

export function generateApiKey(env: "test" | "live"): { key: string; prefix: string; hash: string } {
  const key = `fsk_${env}_${randomBase62(KEY_RANDOM_CHARS)}`;
  return { key, prefix: key.slice(0, KEY_PREFIX_CHARS), hash: hashApiKey(key) };
}

export function hashPassword(password: string): Promise<string> {
  return argon2Hash(password, { algorithm: ARGON2ID });
}

/** False for a wrong password and for a hash that is not a valid argon2 string. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(hash, password);
  } catch {
    return false;
  }
}

function checkPlan(plan: Plan): void {
  if (!PLANS.includes(plan)) throw new DbInputError(`unknown plan ${JSON.stringify(plan)}`);
}

/** Enterprise limits must be present exactly for ENTERPRISE, as positive integers. */
function customColumns(plan: Plan, custom: CustomLimits | undefined) {
  if (plan !== "ENTERPRISE") {
    if (custom) throw new DbInputError(`custom limits are only for ENTERPRISE, not ${plan}`);
    return { customPerMinute: null, customPerDay: null, customBurst: null, customEndpointLimits: Prisma.DbNull };
  }
  if (!custom) throw new DbInputError("ENTERPRISE needs custom limits { perMinute, perDay, burst }");
  // the limiter's own bounds, so that nothing stored can be refused when a request is judged by it
  // (burst ≤ minute ≤ day is a rule of what an operator grants: the CLI and the admin area check it)
  const parsed = CustomLimitsBounds.safeParse(custom);
  if (!parsed.success) throw new DbInputError(describeLimitIssues(parsed.error));
  const endpoints = Object.fromEntries(Object.entries(parsed.data.endpoints ?? {}).filter(([, v]) => v !== undefined));
  return {
    customPerMinute: custom.perMinute,
    customPerDay: custom.perDay,
    customBurst: custom.burst,
    customEndpointLimits: Object.keys(endpoints).length ? endpoints : Prisma.DbNull,
  };
}

export async function createAccount(
  db: Db,
  input: { name: string; plan?: Plan; oib?: string; custom?: CustomLimits },
): Promise<Account> {
  const name = input.name.trim();
  if (!name) throw new DbInputError("account name must not be empty");
  const plan = input.plan ?? "SANDBOX";
  checkPlan(plan);
  if (input.oib !== undefined && !isValidOib(input.oib)) {
    throw new DbInputError(`invalid OIB ${JSON.stringify(input.oib)}: 11 digits with a valid check digit`);
  }
  return db.account.create({ data: { name, plan, oib: input.oib ?? null, ...customColumns(plan, input.custom) } });
}

/** Longest overlap of a rotation: the old key keeps working at most this long after it. */
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 86_400;
/** Latest expiry a key may be given at creation, from now. */
const MAX_KEY_LIFETIME_MS = 5 * 365 * 86_400_000;

/** Throws DbInputError unless `expiresAt` is a valid instant in the future, at most 5 years ahead. */
function checkExpiry(expiresAt: Date, now: number): void {
  const t = expiresAt.getTime();
  if (Number.isNaN(t)) throw new DbInputError("expiresAt is not a valid date");
  if (t <= now) throw new DbInputError("expiresAt must lie in the future");
  if (t > now + MAX_KEY_LIFETIME_MS) throw new DbInputError("expiresAt may lie at most 5 years ahead");
}

/**
 * Issues a key; the full key is returned once and only its hash is stored. With `expiresAt` the key
 * stops working at that instant (the API answers it like an unknown key from then on).
 */
export async function createApiKey(
  db: Db | Prisma.TransactionClient,
  accountId: string,
  name: string,
  opts: { expiresAt?: Date | null } = {},
): Promise<{ id: string; key: string; prefix: string }> {
  const label = name.trim();
  if (!label) throw new DbInputError("API key name must not be empty");
  const expiresAt = opts.expiresAt ?? null;
  if (expiresAt) checkExpiry(expiresAt, Date.now());
  const account = UUID.test(accountId)
    ? await db.account.findUnique({ where: { id: accountId }, select: { plan: true } })
    : null;
  if (!account) throw new DbInputError(`no account ${JSON.stringify(accountId)}`);
  const { key, prefix, hash } = generateApiKey(account.plan === "SANDBOX" ? "test" : "live");
  const row = await db.apiKey.create({ data: { accountId, name: label, prefix, hash, expiresAt }, select: { id: true } });
  return { id: row.id, key, prefix };
}

/** Keys that work right now: not revoked and not past their expiry. */
export function activeKeyWhere(accountId: string, now: Date = new Date()): Prisma.ApiKeyWhereInput {
  return { accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

export type RotateResult =
  | { ok: true; id: string; key: string; prefix: string; name: string; oldKeyEndsAt: Date }
  | { ok: false; reason: "not_found" | "already_rotated" };

/**
 * Rotation: issues a new key with the same name and keeps the old one working for `overlapSeconds`
 * (0 … 7 days; 0 revokes it at once). An old key that expires sooner keeps its earlier expiry. A key
 * can be rotated once; the new key may have an expiry of its own. Caches are told at once.
 */
export async function rotateApiKey(
  db: Db,
  accountId: string,
  keyId: string,
  opts: { overlapSeconds: number; expiresAt?: Date | null },
): Promise<RotateResult> {
  const { overlapSeconds } = opts;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_ROTATION_OVERLAP_SECONDS) {
    throw new DbInputError(`overlapSeconds must be an integer from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}`);
  }
  if (opts.expiresAt) checkExpiry(opts.expiresAt, Date.now());
  if (!UUID.test(accountId) || !UUID.test(keyId)) return { ok: false, reason: "not_found" };
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ name: string; expiresAt: Date | null; replacedById: string | null }[]>`
      SELECT name, "expiresAt", "replacedById" FROM "ApiKey"
       WHERE id = ${keyId}::uuid AND "accountId" = ${accountId}::uuid AND "revokedAt" IS NULL
         AND ("expiresAt" IS NULL OR "expiresAt" > now())
       FOR UPDATE`;
    const old = rows[0];
    if (!old) return { ok: false as const, reason: "not_found" as const };
    if (old.replacedById) return { ok: false as const, reason: "already_rotated" as const };
    const created = await createApiKey(tx, accountId, old.name, { expiresAt: opts.expiresAt ?? null });
    const now = new Date();
    const overlapEnd = new Date(now.getTime() + overlapSeconds * 1000);
    const endsAt = old.expiresAt && old.expiresAt < overlapEnd ? old.expiresAt : overlapEnd;
    await tx.apiKey.update({
      where: { id: keyId },
      data: overlapSeconds === 0 ? { replacedById: created.id, revokedAt: now } : { replacedById: created.id, expiresAt: endsAt },
    });
    await announceAccountChange(tx, accountId);
    return { ok: true as const, ...created, name: old.name, oldKeyEndsAt: overlapSeconds === 0 ? now : endsAt };
  });
}

/** Revokes one of the account's own keys; false when it has no such active key. */
export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<boolean> {
  if (!UUID.test(accountId) || !UUID.test(keyId)) return false;
  const { count } = await db.apiKey.updateMany({
    where: { id: keyId, accountId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 1) await announceAccountChange(db, accountId);
  return count === 1;
}

/** Same endpoint overrides, whatever the key order (jsonb does not keep it). */
function sameEndpointLimits(stored: Prisma.JsonValue | null, wanted: unknown): boolean {
  const entries = (v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? JSON.stringify(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : null;
  return entries(stored) === entries(wanted === Prisma.DbNull ? null : wanted);
}

/**
 * Changes the plan (ENTERPRISE with its custom limits) and bumps limitsVersion so caches notice.
 * Setting what the account already has changes nothing: no bump, no announcement. Accepts a
 * transaction client so a caller can tie the change to its own writes; the announcement is then
 * delivered when that transaction commits.
 */
export async function setPlan(
  db: Db | Prisma.TransactionClient,
  accountId: string,
  plan: Plan,
  custom?: CustomLimits,
): Promise<Account> {
  checkPlan(plan);
  const columns = customColumns(plan, custom);
  if (!UUID.test(accountId)) throw new DbInputError(`no account ${JSON.stringify(accountId)}`);
  const current = await db.account.findUnique({ where: { id: accountId } });
  if (!current) throw new DbInputError(`no account ${JSON.stringify(accountId)}`);
  if (
    current.plan === plan &&
    current.customPerMinute === columns.customPerMinute &&
    current.customPerDay === columns.customPerDay &&
    current.customBurst === columns.customBurst &&
    sameEndpointLimits(current.customEndpointLimits, columns.customEndpointLimits)
  ) {
    return current;
  }
  try {
    const account = await db.account.update({
      where: { id: accountId },
      data: { plan, ...columns, limitsVersion: { increment: 1 } },
    });
    await announceAccountChange(db, accountId);
    return account;
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2025") {
      throw new DbInputError(`no account ${JSON.stringify(accountId)}`);
    }
    throw error;
  }
}

export const DEMO_ACCOUNT_NAME = "Demo d.o.o.";
export const DEMO_OIB = "69435151530";
export const DEMO_EMAIL = "demo@fiskal.local";
export const OPERATOR_ACCOUNT_NAME = "Fiskal — operater";
export const OPERATOR_EMAIL = "operator@fiskal.local";

export type EnsureDemoResult = {
  account: Account;
  /** The demo key in plaintext, only when this call created it. */
  apiKey?: string;
  user: { email: string; password?: string };
  operator: { email: string; password?: string };
};

/**
 * Makes sure the demo customer (account, key, portal user) and the operator exist. Secrets are
 * returned only by the call that created them; the portal user's email is the idempotency anchor.
 */
export async function ensureDemo(db: Db): Promise<EnsureDemoResult> {
  const demo = await ensureUser(db, DEMO_EMAIL, "CUSTOMER", async (tx) => {
    const account = await tx.account.create({ data: { name: DEMO_ACCOUNT_NAME, plan: "SANDBOX", oib: DEMO_OIB } });
    const { key, prefix, hash } = generateApiKey("test");
    await tx.apiKey.create({ data: { accountId: account.id, name: "Demo ključ", prefix, hash } });
    return { accountId: account.id, apiKey: key, name: "Demo korisnik" };
  });
  const operator = await ensureUser(db, OPERATOR_EMAIL, "OPERATOR", async (tx) => {
    const account = await tx.account.create({ data: { name: OPERATOR_ACCOUNT_NAME } });
    return { accountId: account.id, name: "Operator" };
  });
  return {
    account: demo.account,
    ...(demo.apiKey ? { apiKey: demo.apiKey } : {}),
    user: { email: DEMO_EMAIL, ...(demo.password ? { password: demo.password } : {}) },
    operator: { email: OPERATOR_EMAIL, ...(operator.password ? { password: operator.password } : {}) },
  };
}

type Tx = Prisma.TransactionClient;

async function ensureUser(
  db: Db,
  email: string,
  role: "CUSTOMER" | "OPERATOR",
  createAccountFor: (tx: Tx) => Promise<{ accountId: string; apiKey?: string; name: string }>,
): Promise<{ account: Account; apiKey?: string; password?: string }> {
  const existing = await db.user.findUnique({ where: { email }, include: { account: true } });
  if (existing) return { account: existing.account };
  const password = randomBase62(20);
  const passwordHash = await hashPassword(password);
  try {
    return await db.$transaction(async (tx) => {
      const created = await createAccountFor(tx);
      const user = await tx.user.create({
        data: { email, name: created.name, role, passwordHash, accountId: created.accountId },
        include: { account: true },
      });
      return { account: user.account, apiKey: created.apiKey, password };
    });
  } catch (error) {
    // Another process created the user first; its transaction won and ours rolled back entirely.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const winner = await db.user.findUnique({ where: { email }, include: { account: true } });
      if (winner) return { account: winner.account };
    }
    throw error;
  }
}
