// Team roles against a real PostgreSQL database and a real SMTP catcher: every customer procedure
// × every role (the server refuses what the role may not do, with nothing changed), invitations by
// e-mail read back from the catcher, the last owner, and the audit log of every team action.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createAccount, hashPassword } from "@fiskal/accounts";
import { startCatcher, type Catcher } from "@fiskal/mail";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "./root";
import { usePortalTestDatabase } from "./testing";

const portal = usePortalTestDatabase({ rateLimit: "team", allowPrivateWebhooks: true });
let catcher: Catcher;

beforeAll(async () => {
  catcher = await startCatcher();
  process.env.SMTP_URL = catcher.smtpUrl;
  process.env.MAIL_FROM = "Fiskal <noreply@fiskal.test>";
  process.env.PORTAL_URL = "http://portal.test";
});

afterAll(async () => {
  await catcher?.close();
});

type Role = "OWNER" | "DEVELOPER" | "ACCOUNTANT";
let seq = 0;

function callerFor(u: { id: string; email: string; accountId: string; role?: "CUSTOMER" | "OPERATOR" }) {
  return createCaller({
    db: portal.db,
    session: { user: { id: u.id, email: u.email, role: u.role ?? "CUSTOMER", accountId: u.accountId }, expires: "2999-01-01T00:00:00Z" },
    headers: new Headers({ "x-forwarded-for": "198.51.100.7" }),
  });
}

async function newUser(accountId: string, opts: { role?: Role; password?: string; operator?: boolean } = {}) {
  const u = await portal.db.user.create({
    data: {
      email: `t${++seq}-${Date.now()}@primjer.hr`,
      passwordHash: opts.password ? await hashPassword(opts.password) : "x",
      accountId,
      role: opts.operator ? "OPERATOR" : "CUSTOMER",
    },
  });
  if (opts.role && opts.role !== "OWNER") await portal.db.membership.update({ where: { userId_accountId: { userId: u.id, accountId } }, data: { role: opts.role } });
  return { ...u, caller: callerFor(u) };
}

async function team() {
  const account = await createAccount(portal.db, { name: `Tvrtka ${++seq}` });
  const owner = await newUser(account.id);
  const developer = await newUser(account.id, { role: "DEVELOPER" });
  const accountant = await newUser(account.id, { role: "ACCOUNTANT" });
  return { account, owner, developer, accountant };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "OK";
  } catch (err) {
    if (err instanceof TRPCError) return err.code;
    throw err;
  }
}

type Caller = ReturnType<typeof callerFor>;
const id = () => randomUUID();
const ALL: Role[] = ["OWNER", "DEVELOPER", "ACCOUNTANT"];
const DEV: Role[] = ["OWNER", "DEVELOPER"];
const ACC: Role[] = ["OWNER", "ACCOUNTANT"];
const OWN: Role[] = ["OWNER"];

/** Every procedure a customer can call, with the roles allowed; ids are unknown so nothing is found. */
const MATRIX: [string, Role[], (c: Caller) => Promise<unknown>][] = [
  ["keys.list", DEV, (c) => c.keys.list()],
  ["keys.create", DEV, (c) => c.keys.create({ name: "matrica" })],
  ["keys.rotate", DEV, (c) => c.keys.rotate({ id: id(), overlapSeconds: 60 })],
  ["keys.revoke", DEV, (c) => c.keys.revoke({ id: id() })],
  ["webhooks.endpoints", DEV, (c) => c.webhooks.endpoints()],
  ["webhooks.create", DEV, (c) => c.webhooks.create({ url: "not a url" })],
  ["webhooks.secret", DEV, (c) => c.webhooks.secret({ id: id() })],
  ["webhooks.rotateSecret", DEV, (c) => c.webhooks.rotateSecret({ id: id() })],
  ["webhooks.setEnabled", DEV, (c) => c.webhooks.setEnabled({ id: id(), enabled: false })],
  ["webhooks.setEventTypes", DEV, (c) => c.webhooks.setEventTypes({ id: id(), eventTypes: ["rate_limit.warning"] })],
  ["webhooks.remove", DEV, (c) => c.webhooks.remove({ id: id() })],
  ["webhooks.sendTest", DEV, (c) => c.webhooks.sendTest({ id: id() })],
  ["webhooks.redeliver", DEV, (c) => c.webhooks.redeliver({ deliveryId: id() })],
  ["webhooks.events", DEV, (c) => c.webhooks.events({})],
  ["certificates.get", DEV, (c) => c.certificates.get()],
  ["certificates.upload", DEV, (c) => c.certificates.upload({ pkcs12: "AAAA", password: "x" })],
  ["usage.overview", ALL, (c) => c.usage.overview({})],
  ["usage.recent", DEV, (c) => c.usage.recent({ limit: 5 })],
  ["plan.overview", ALL, (c) => c.plan.overview()],
  ["plan.requestUpgrade", OWN, (c) => c.plan.requestUpgrade({ plan: "STARTER" })],
  ["plan.cancelRequest", OWN, (c) => c.plan.cancelRequest({ requestId: id() })],
  ["plan.contactEnterprise", OWN, (c) => c.plan.contactEnterprise({ expectedVolume: "1000", message: "Trebamo više zahtjeva." })],
  ["audit.list", ACC, (c) => c.audit.list({})],
  ["team.overview", OWN, (c) => c.team.overview()],
  ["team.invite", OWN, (c) => c.team.invite({ email: `matrica-${++seq}@primjer.hr`, role: "DEVELOPER" })],
  ["team.revokeInvitation", OWN, (c) => c.team.revokeInvitation({ id: id() })],
  ["team.changeRole", OWN, (c) => c.team.changeRole({ memberId: id(), role: "DEVELOPER" })],
  ["team.remove", OWN, (c) => c.team.remove({ memberId: id() })],
  ["team.leave", ALL, (c) => c.team.leave()],
  ["account.me", ALL, (c) => c.account.me()],
  ["team.accounts", ALL, (c) => c.team.accounts()],
];

describe("role matrix: every portal procedure × every role", () => {
  it.each(MATRIX)("%s", async (name, allowed, call) => {
    const t = await team();
    const before = {
      keys: await portal.db.apiKey.count({ where: { accountId: t.account.id } }),
      invitations: await portal.db.invitation.count({ where: { accountId: t.account.id } }),
      requests: await portal.db.upgradeRequest.count({ where: { accountId: t.account.id } }),
      members: await portal.db.membership.count({ where: { accountId: t.account.id } }),
    };
    const who = (role: Role) => (role === "OWNER" ? t.owner : role === "DEVELOPER" ? t.developer : t.accountant);
    // Refused roles first: after them nothing may have changed.
    for (const role of ALL.filter((r) => !allowed.includes(r))) {
      expect(await codeOf(call(who(role).caller)), `${name} as ${role}`).toBe("FORBIDDEN");
    }
    expect({
      keys: await portal.db.apiKey.count({ where: { accountId: t.account.id } }),
      invitations: await portal.db.invitation.count({ where: { accountId: t.account.id } }),
      requests: await portal.db.upgradeRequest.count({ where: { accountId: t.account.id } }),
      members: await portal.db.membership.count({ where: { accountId: t.account.id } }),
    }).toEqual(before);
    for (const role of allowed) expect(await codeOf(call(who(role).caller)), `${name} as ${role}`).not.toBe("FORBIDDEN");
    // A user removed from the team is refused everywhere but their own profile and team list.
    const removed = await newUser(t.account.id, { role: "DEVELOPER" });
    await portal.db.membership.delete({ where: { userId_accountId: { userId: removed.id, accountId: t.account.id } } });
    const code = await codeOf(call(removed.caller));
    if (name === "account.me" || name === "team.accounts") expect(code).toBe("OK");
    else expect(code, `${name} as a removed member`).toBe("FORBIDDEN");
  });

  it("an accountant cannot create a key, and nothing is written", async () => {
    const t = await team();
    await expect(t.accountant.caller.keys.create({ name: "ne" })).rejects.toMatchObject({ code: "FORBIDDEN", message: "Uloga „računovođa” nema pravo na ovu radnju." });
    expect(await portal.db.apiKey.count({ where: { accountId: t.account.id } })).toBe(0);
    expect(await portal.db.auditLog.count({ where: { accountId: t.account.id, action: "key.created" } })).toBe(0);
    const ok = await t.developer.caller.keys.create({ name: "da" });
    expect(ok.ok).toBe(true);
  });
});

describe("invitations by e-mail", () => {
  it("an owner invites an accountant; the e-mail (Croatian) carries the link; accepting creates the user with that role", async () => {
    const t = await team();
    const email = `racunovodja-${++seq}@primjer.hr`;
    const r = await t.owner.caller.team.invite({ email: email.toUpperCase(), role: "ACCOUNTANT" });
    expect(r).toMatchObject({ ok: true, sent: true });
    const mail = await catcher.waitFor((m) => m.envelope.to.includes(email));
    expect(mail.subject).toBe(`Poziv u tim tvrtke ${t.account.name} na Fiskalu`);
    expect(mail.text).toContain("s ulogom: računovođa");
    expect(mail.from).toContain("noreply@fiskal.test");
    const token = /http:\/\/portal\.test\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeDefined();

    const anon = createCaller({ db: portal.db, session: null, headers: new Headers() });
    expect(await anon.team.invitation({ token: token! })).toMatchObject({ found: true, state: "open", email, role: "ACCOUNTANT", userExists: false });
    expect(await anon.team.accept({ token: token!, password: "kratka" })).toMatchObject({ ok: false, message: "Lozinka mora imati barem 10 znakova." });
    expect(await anon.team.accept({ token: token!, password: "dovoljno-duga-lozinka", name: "Ana" })).toEqual({ ok: true, email });
    expect(await anon.team.accept({ token: token!, password: "dovoljno-duga-lozinka" })).toMatchObject({ ok: false });

    const user = await portal.db.user.findUniqueOrThrow({ where: { email }, include: { memberships: true } });
    expect(user.accountId).toBe(t.account.id);
    expect(user.memberships.map((m) => [m.accountId, m.role])).toEqual([[t.account.id, "ACCOUNTANT"]]);
    const accountant = callerFor(user);
    await expect(accountant.keys.create({ name: "x" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await accountant.account.me()).memberRole).toBe("ACCOUNTANT");

    const overview = await t.owner.caller.team.overview();
    expect(overview.members.map((m) => m.role)).toEqual(["OWNER", "DEVELOPER", "ACCOUNTANT", "ACCOUNTANT"]);
    expect(overview.invitations).toEqual([]);
    const actions = (await portal.db.auditLog.findMany({ where: { accountId: t.account.id, action: { startsWith: "team." } }, orderBy: { id: "asc" } })).map((a) => [a.action, a.actor, a.target]);
    expect(actions).toEqual([
      ["team.invited", t.owner.email, email],
      ["team.joined", email, email],
    ]);
  });

  it("an existing user confirms with their password and then works in the inviting account", async () => {
    const t = await team();
    const other = await createAccount(portal.db, { name: "Drugi obrt" });
    const existing = await newUser(other.id, { password: "postojeca-lozinka" });
    catcher.clear();
    await t.owner.caller.team.invite({ email: existing.email, role: "DEVELOPER" });
    const mail = await catcher.waitFor((m) => m.envelope.to.includes(existing.email));
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const anon = createCaller({ db: portal.db, session: null, headers: new Headers() });
    expect(await anon.team.accept({ token, password: "kriva-lozinka-123" })).toMatchObject({ ok: false, message: expect.stringContaining("Lozinka nije ispravna") });
    expect(await portal.db.membership.count({ where: { userId: existing.id } })).toBe(1);
    expect(await anon.team.accept({ token, password: "postojeca-lozinka" })).toMatchObject({ ok: true });
    const me = callerFor({ ...existing, accountId: other.id });
    expect((await me.team.accounts()).map((a) => [a.name, a.role, a.current])).toEqual([
      ["Drugi obrt", "OWNER", false],
      [t.account.name, "DEVELOPER", true],
    ]);
    expect(await me.team.switchAccount({ accountId: other.id })).toEqual({ ok: true });
    expect((await portal.db.user.findUniqueOrThrow({ where: { id: existing.id } })).accountId).toBe(other.id);
    expect(await me.team.switchAccount({ accountId: randomUUID() })).toMatchObject({ ok: false });
  });

  it("a second invitation to the same address replaces the first; a withdrawn or expired link is refused", async () => {
    const t = await team();
    const email = `dvaput-${++seq}@primjer.hr`;
    catcher.clear();
    await t.owner.caller.team.invite({ email, role: "DEVELOPER" });
    await t.owner.caller.team.invite({ email, role: "ACCOUNTANT" });
    const [first, second] = catcher.messages({ to: email }).map((m) => /\/invite\/([A-Za-z0-9_-]+)/.exec(m.text)![1]!);
    const anon = createCaller({ db: portal.db, session: null, headers: new Headers() });
    expect(await anon.team.invitation({ token: first! })).toMatchObject({ state: "revoked" });
    const open = (await t.owner.caller.team.overview()).invitations;
    expect(open.map((i) => [i.email, i.role])).toEqual([[email, "ACCOUNTANT"]]);
    expect(await t.owner.caller.team.revokeInvitation({ id: open[0]!.id })).toEqual({ ok: true });
    expect(await anon.team.accept({ token: second!, password: "dovoljno-duga-lozinka" })).toMatchObject({ ok: false, message: expect.stringContaining("povučen") });
    expect(await portal.db.user.count({ where: { email } })).toBe(0);
    expect(await t.owner.caller.team.invite({ email: t.developer.email, role: "OWNER" })).toMatchObject({ ok: false, message: "Korisnik s tom e-mail adresom već je član tima." });
  });
});

describe("the last owner", () => {
  it("cannot leave, be demoted or be removed; with a second owner each works and is audited", async () => {
    const t = await team();
    const ownerRow = (await t.owner.caller.team.overview()).members.find((m) => m.you)!;
    const LAST = "Račun mora imati barem jednog vlasnika. Prvo dodijelite ulogu vlasnika drugom članu.";
    expect(await t.owner.caller.team.leave()).toEqual({ ok: false, message: LAST });
    expect(await t.owner.caller.team.changeRole({ memberId: ownerRow.id, role: "DEVELOPER" })).toEqual({ ok: false, message: LAST });
    expect(await t.owner.caller.team.remove({ memberId: ownerRow.id })).toEqual({ ok: false, message: LAST });
    expect(await portal.db.membership.count({ where: { accountId: t.account.id, role: "OWNER" } })).toBe(1);

    const devRow = (await t.owner.caller.team.overview()).members.find((m) => m.email === t.developer.email)!;
    expect(await t.owner.caller.team.changeRole({ memberId: devRow.id, role: "OWNER" })).toEqual({ ok: true });
    // Two owners demoting each other at once: the account lock lets one win, one owner stays.
    const newOwnerRow = devRow;
    const [a, b] = await Promise.all([
      t.owner.caller.team.changeRole({ memberId: newOwnerRow.id, role: "ACCOUNTANT" }),
      t.developer.caller.team.changeRole({ memberId: ownerRow.id, role: "ACCOUNTANT" }),
    ]);
    expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
    expect(await portal.db.membership.count({ where: { accountId: t.account.id, role: "OWNER" } })).toBe(1);

    const accRow = (await portal.db.membership.findFirstOrThrow({ where: { accountId: t.account.id, userId: t.accountant.id } })).id;
    const stillOwner = a.ok ? t.owner : t.developer;
    expect(await stillOwner.caller.team.remove({ memberId: accRow })).toEqual({ ok: true });
    await expect(t.accountant.caller.usage.overview({})).rejects.toMatchObject({ code: "FORBIDDEN", message: "Više niste član tima ovog računa." });
    const actions = (await portal.db.auditLog.findMany({ where: { accountId: t.account.id, action: { startsWith: "team." } }, orderBy: { id: "asc" } })).map((x) => x.action);
    expect(actions).toEqual(["team.role_changed", "team.role_changed", "team.removed"]);
  });
});

describe("e-mail to owners", () => {
  it("an operator's approval of an upgrade is mailed to every owner of the account, in Croatian", async () => {
    const t = await team();
    const devRow = await portal.db.membership.findFirstOrThrow({ where: { accountId: t.account.id, userId: t.developer.id } });
    await t.owner.caller.team.changeRole({ memberId: devRow.id, role: "OWNER" });
    expect(await t.owner.caller.plan.requestUpgrade({ plan: "STARTER" })).toEqual({ ok: true });
    const ops = await createAccount(portal.db, { name: "Operateri" });
    const op = await newUser(ops.id, { operator: true });
    const operator = callerFor({ ...op, role: "OPERATOR" });
    const request = await portal.db.upgradeRequest.findFirstOrThrow({ where: { accountId: t.account.id, status: "PENDING" } });
    catcher.clear();
    expect(await operator.admin.approve({ requestId: request.id, note: "" })).toEqual({ ok: true });
    const got = await Promise.all([t.owner.email, t.developer.email].map((e) => catcher.waitFor((m) => m.envelope.to.includes(e))));
    for (const m of got) {
      expect(m.subject).toBe("Odobren je paket Starter");
      expect(m.text).toContain(`zahtjev tvrtke ${t.account.name} za prelazak na paket Starter je odobren`);
    }
    expect(catcher.messages({ to: t.accountant.email })).toEqual([]);
  });
});

describe("migration", () => {
  it("makes every existing user OWNER of their account, and a new user OWNER of the account it is created with", async () => {
    const account = await createAccount(portal.db, { name: `Stari račun ${++seq}` });
    const a = await newUser(account.id);
    const b = await newUser(account.id);
    expect((await portal.db.membership.findMany({ where: { accountId: account.id } })).map((m) => m.role)).toEqual(["OWNER", "OWNER"]);
    // As before the migration: users without memberships; the migration's statement gives them one.
    await portal.db.membership.deleteMany({ where: { accountId: account.id } });
    const sql = readFileSync(new URL("../../../../../packages/db/prisma/migrations/20261126104638_team_memberships/migration.sql", import.meta.url), "utf8");
    const backfill = /-- Every existing user[^\n]*\n([\s\S]*?;)/.exec(sql)?.[1];
    expect(backfill).toBeDefined();
    await portal.db.$executeRawUnsafe(backfill!);
    const rows = await portal.db.membership.findMany({ where: { accountId: account.id }, orderBy: { userId: "asc" } });
    expect(rows.map((m) => [m.userId, m.role])).toEqual([a.id, b.id].sort().map((id) => [id, "OWNER"]));
    // Run twice (a re-applied statement), nothing doubles.
    await portal.db.$executeRawUnsafe(backfill!);
    expect(await portal.db.membership.count({ where: { accountId: account.id } })).toBe(2);
  });
});

describe("the operator's two-factor rule holds for portal calls, not only for pages", () => {
  it("an owner without TOTP is refused every call but who they are, with nothing changed", async () => {
    const t = await team();
    await portal.db.portalSettings.upsert({ where: { id: 1 }, create: { id: 1, requireTotpForOwners: true }, update: { requireTotpForOwners: true } });
    try {
      expect(await codeOf(t.owner.caller.keys.create({ name: "bez-2fa" }))).toBe("FORBIDDEN");
      expect(await codeOf(t.owner.caller.keys.list())).toBe("FORBIDDEN");
      expect(await codeOf(t.owner.caller.team.invite({ email: `bez-2fa-${++seq}@primjer.hr`, role: "DEVELOPER" }))).toBe("FORBIDDEN");
      expect(await portal.db.apiKey.count({ where: { accountId: t.account.id } })).toBe(0);
      expect(await portal.db.invitation.count({ where: { accountId: t.account.id } })).toBe(0);
      expect(await codeOf(t.owner.caller.account.me())).toBe("OK");
      // The rule covers owners only: the developer keeps working.
      expect(await codeOf(t.developer.caller.keys.list())).toBe("OK");
      // With TOTP enabled the owner is let through.
      await portal.db.user.update({ where: { id: t.owner.id }, data: { totpEnabledAt: new Date() } });
      expect(await codeOf(t.owner.caller.keys.list())).toBe("OK");
    } finally {
      await portal.db.portalSettings.update({ where: { id: 1 }, data: { requireTotpForOwners: false } });
    }
  });
});
