import { validateWebhookUrl } from "@fiskal/webhooks";
import { describe, expect, it } from "vitest";
import { webhookUrlProblem } from "./webhook-messages.ts";

const ENGLISH = /\b(is|not|allowed|address|host|resolves|scheme|credentials|URL has|longer)\b/;

describe("webhookUrlProblem", () => {
  it("says in Croatian why each kind of URL is refused", async () => {
    const reasons: string[] = [];
    for (const raw of ["http://127.0.0.1/x", "http://10.0.0.1/x", "http://[::1]/x", "http://169.254.1.1/x", "http://224.0.0.1/x", "ftp://primjer.hr/x", "https://a:b@primjer.hr/x", "nije adresa", `https://primjer.hr/${"a".repeat(2050)}`]) {
      const r = await validateWebhookUrl(raw, { allowPrivate: false });
      expect(r.ok, raw).toBe(false);
      if (!r.ok) reasons.push(r.reason);
    }
    const local = await validateWebhookUrl("http://localhost/x", { allowPrivate: false });
    expect(local.ok).toBe(false);
    if (!local.ok) reasons.push(local.reason);
    for (const reason of reasons) {
      const text = webhookUrlProblem(reason);
      expect(text, reason).not.toMatch(ENGLISH);
      expect(text, reason).not.toBe(webhookUrlProblem("something new"));
    }
    expect(webhookUrlProblem("loopback address 127.0.0.1 is not allowed")).toBe(
      "Adresa 127.0.0.1 je lokalna (loopback) adresa. Webhookovi se šalju samo na javne adrese.",
    );
  });
});
