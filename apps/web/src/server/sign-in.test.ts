// Sign-in against a real PostgreSQL database and the real Redis limiter: a server-side session per
// sign-in that sign-out ends, limits per (e-mail, address) and a slow-down per e-mail that never
// locks the owner out.
import { createAccount, hashPassword } from "@fiskal/accounts";
import { describe, expect, it } from "vitest";
import { authOptions } from "~/server/auth";
import { delayForFailures } from "~/server/login-limits";
import { isSessionLive } from "~/server/portal-sessions";
import { hashRecoveryCode, newTotpSecret, totpCode, totpStep } from "~/server/totp";
import { createCaller } from "~/server/trpc/root";
import { usePortalTestDatabase } from "~/server/trpc/testing";

const portal = usePortalTestDatabase({ rateLimit: "signin" });

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<{ id: string; sid?: string }>;
const authorize = () => (authOptions().providers[0] as unknown as { options: { authorize: Authorize } }).options.authorize;

let seq = 0;
async function user(password: string) {
  const account = await createAccount(portal.db, { name: `Prijava ${++seq} d.o.o.` });
  const email = `prijava-${seq}-${Date.now()}@primjer.hr`;
  const u = await portal.db.user.create({ data: { email, passwordHash: await hashPassword(password), accountId: account.id } });
  return { id: u.id, email };
}

const from = (ip: string, ua = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36") => ({ headers: { "x-forwarded-for": ip, "user-agent": ua } });

async function timed<T>(p: Promise<T>): Promise<{ ms: number; result: T | Error }> {
  const t0 = performance.now();
  const result = await p.catch((e: Error) => e);
  return { ms: performance.now() - t0, result };
}

describe("server-side sessions", () => {
  it("each sign-in gets its own session row with device and address; sign-out ends it at once", async () => {
    const u = await user("ispravna-lozinka");
    const a = await authorize()({ email: u.email, password: "ispravna-lozinka" }, from("198.18.5.1"));
    const b = await authorize()({ email: u.email, password: "ispravna-lozinka" }, from("198.18.5.2", "Mozilla/5.0 (Windows NT 10.0) Firefox/133.0"));
    expect(a.sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.sid).not.toBe(a.sid);
    const rows = await portal.db.portalSession.findMany({ where: { userId: u.id }, orderBy: { ip: "asc" } });
    expect(rows.map((r) => r.ip)).toEqual(["198.18.5.1", "198.18.5.2"]);
    expect(rows[1]?.userAgent).toContain("Firefox");
    const lifetime = rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime();
    expect(Math.abs(lifetime - 7 * 86_400_000)).toBeLessThan(5_000);

    expect(await isSessionLive(a.sid, u.id)).toBe(true);
    expect(await isSessionLive(a.sid, "00000000-0000-7000-8000-000000000000")).toBe(false);
    await authOptions().events!.signOut!({ token: { uid: u.id, sid: a.sid }, session: undefined as never });
    expect(await isSessionLive(a.sid, u.id)).toBe(false);
    expect(await isSessionLive(b.sid, u.id)).toBe(true);
    expect(await portal.db.portalSession.count({ where: { userId: u.id } })).toBe(1);
  });

  it("a token without a session id (issued before sessions were kept) is not accepted", async () => {
    const u = await user("ispravna-lozinka");
    expect(await isSessionLive(undefined, u.id)).toBe(false);
    expect(await isSessionLive("not-a-uuid", u.id)).toBe(false);
  });
});

describe("sign-in limits", () => {
  it("the wait grows with the failures of the last minute and has a floor after many in a day", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => delayForFailures(n, n))).toEqual([0, 0, 0, 250, 500, 1000, 2000, 8000]);
    expect(delayForFailures(0, 21)).toBe(1000);
  });

  it("one address guessing one e-mail is refused after 3 a second (and 10 a minute); the owner from another address still signs in", async () => {
    const u = await user("ispravna-lozinka");
    const messages: string[] = [];
    for (let i = 0; i < 7; i++) {
      await authorize()({ email: u.email, password: `pogadam-${i}` }, from("198.18.6.1")).catch((e: Error) => messages.push(e.message));
    }
    expect(messages).toHaveLength(7);
    // 3 a second from this address: the rest are refused before any password check.
    expect(messages.slice(0, 3)).toEqual(Array(3).fill("Neispravan e-mail ili lozinka."));
    expect(messages.filter((m) => m === "Neispravan e-mail ili lozinka.").length).toBeLessThanOrEqual(5);
    // Whatever the timing, never more than the minute's 10 checked.
    expect(messages.filter((m) => m.startsWith("Previše pokušaja")).length).toBeGreaterThanOrEqual(2);
    // Even the right password from that address waits for its window.
    await expect(authorize()({ email: u.email, password: "ispravna-lozinka" }, from("198.18.6.1"))).rejects.toThrow(/^Previše pokušaja/);
    const owner = await timed(authorize()({ email: u.email, password: "ispravna-lozinka" }, from("198.18.6.200")));
    expect(owner.result).toMatchObject({ id: u.id });
  }, 30_000);

  it("failures from changing addresses slow the e-mail down instead of locking it; the owner signs in, later", async () => {
    const u = await user("ispravna-lozinka");
    const attempts: { ms: number; message: string }[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await timed(authorize()({ email: u.email, password: "pogadam" }, from(`198.18.7.${i}`)));
      attempts.push({ ms: r.ms, message: r.result instanceof Error ? r.result.message : "signed in" });
    }
    // Never a refusal: every guess is checked (and wrong), each later one after a longer wait.
    expect(attempts.map((a) => a.message)).toEqual(Array(7).fill("Neispravan e-mail ili lozinka."));
    expect(attempts[4]!.ms).toBeGreaterThanOrEqual(500);
    expect(attempts[6]!.ms).toBeGreaterThanOrEqual(2000);
    const owner = await timed(authorize()({ email: u.email, password: "ispravna-lozinka" }, from("198.18.7.200")));
    expect(owner.result).toMatchObject({ id: u.id });
    expect(owner.ms).toBeGreaterThanOrEqual(4000);
  }, 60_000);
});

describe("two-factor sign-in", () => {
  it("asks for the code only after the right password, takes each code once (also when two race), and a recovery code once", async () => {
    const u = await user("ispravna-lozinka");
    const secret = newTotpSecret();
    await portal.db.user.update({ where: { id: u.id }, data: { totpSecret: secret, totpEnabledAt: new Date(), totpLastStep: totpStep() - 2 } });
    await portal.db.totpRecoveryCode.create({ data: { userId: u.id, codeHash: hashRecoveryCode("abcd-efgh-ijkl") } });
    const req = from("198.18.9.1");
    await expect(authorize()({ email: u.email, password: "kriva" }, req)).rejects.toThrow("Neispravan e-mail ili lozinka.");
    await expect(authorize()({ email: u.email, password: "ispravna-lozinka" }, req)).rejects.toThrow(/^Unesite kôd iz aplikacije/);
    const code = totpCode(secret);
    const race = await Promise.allSettled([
      authorize()({ email: u.email, password: "ispravna-lozinka", code }, from("198.18.9.2")),
      authorize()({ email: u.email, password: "ispravna-lozinka", code }, from("198.18.9.3")),
    ]);
    expect(race.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(race.find((r) => r.status === "rejected")).toMatchObject({ reason: { message: "Kôd nije ispravan ili je već iskorišten." } });
    await expect(authorize()({ email: u.email, password: "ispravna-lozinka", code: "ABCD EFGH IJKL" }, from("198.18.9.4"))).resolves.toMatchObject({ id: u.id });
    await expect(authorize()({ email: u.email, password: "ispravna-lozinka", code: "abcd-efgh-ijkl" }, from("198.18.9.5"))).rejects.toThrow("Kôd nije ispravan ili je već iskorišten.");
  }, 30_000);
});

describe("password checks of a signed-in session", () => {
  it("a password change with wrong current passwords counts with the sign-in limits", async () => {
    const u = await user("ispravna-lozinka");
    const row = await portal.db.user.findUniqueOrThrow({ where: { id: u.id } });
    const caller = createCaller({
      db: portal.db,
      session: { user: { id: u.id, email: u.email, role: "CUSTOMER", accountId: row.accountId }, expires: "2999-01-01T00:00:00Z" },
      headers: new Headers({ "x-forwarded-for": "198.18.10.1" }),
    });
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      await caller.security.changePassword({ current: `kriva-${i}`, next: "nova-lozinka-123" }).catch((e: Error) => messages.push(e.message));
    }
    expect(messages.slice(0, 3)).toEqual(Array(3).fill("Trenutačna lozinka nije ispravna."));
    expect(messages.filter((m) => m.startsWith("Previše pokušaja")).length).toBeGreaterThanOrEqual(1);
    expect((await portal.db.user.findUniqueOrThrow({ where: { id: u.id } })).passwordHash).toBe(row.passwordHash);
  });
});
