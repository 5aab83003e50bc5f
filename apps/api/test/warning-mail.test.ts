// rate_limit.warning reaches the account's owners by e-mail as well as by webhook: once, in Croatian,
// over SMTP to a real catcher, and not to a developer or accountant of the same team.
import { createMailer, startCatcher, type Catcher } from "@fiskal/mail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, type Harness } from "./harness.ts";

let h: Harness;
let catcher: Catcher;

beforeAll(async () => {
  catcher = await startCatcher();
  h = await startHarness({ config: { mailer: createMailer({ url: catcher.smtpUrl, from: "Fiskal <noreply@fiskal.test>" }), webhooks: { allowPrivate: true, worker: false } } });
});

afterAll(async () => {
  await h?.close();
  await catcher?.close();
});

describe("rate_limit.warning by e-mail", () => {
  it("mails each owner once when 80 % of the day is used", async () => {
    const a = await h.account({ plan: "ENTERPRISE", custom: { perMinute: 100, perDay: 10, burst: 100 }, name: "Obrt Šljivić" });
    const db = h.api.services.db;
    const owner = await db.user.create({ data: { email: "vlasnik@sljivic.hr", passwordHash: "x", accountId: a.id } });
    const second = await db.user.create({ data: { email: "suvlasnica@sljivic.hr", passwordHash: "x", accountId: a.id } });
    const dev = await db.user.create({ data: { email: "programer@sljivic.hr", passwordHash: "x", accountId: a.id } });
    await db.membership.update({ where: { userId_accountId: { userId: dev.id, accountId: a.id } }, data: { role: "DEVELOPER" } });

    for (let i = 0; i < 7; i++) expect((await call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: "69435151530" } })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(catcher.messages({ to: owner.email })).toEqual([]);

    // The 8th of 10 reaches the threshold; the 9th and 10th do not warn again.
    for (let i = 0; i < 3; i++) expect((await call(h.url, "POST", "/v1/validate/oib", { key: a.key, body: { oib: "69435151530" } })).status).toBe(200);
    const mail = await catcher.waitFor((m) => m.envelope.to.includes(owner.email));
    await catcher.waitFor((m) => m.envelope.to.includes(second.email));
    expect(mail.subject).toBe("Potrošeno je 80 % dnevne kvote");
    expect(mail.text).toContain("tvrtka Obrt Šljivić danas je iskoristila 8 od 10 zahtjeva dnevne kvote");
    expect(mail.text).toContain("http://portal.test/dashboard");
    await new Promise((r) => setTimeout(r, 500));
    expect(catcher.messages({ to: owner.email })).toHaveLength(1);
    expect(catcher.messages({ to: dev.email })).toEqual([]);
    // The webhook event was recorded once as well.
    expect(await db.webhookEvent.count({ where: { accountId: a.id, type: "rate_limit.warning" } })).toBe(1);
  });
});
