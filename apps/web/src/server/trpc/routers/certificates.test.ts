// The portal's certificate procedures against a real PostgreSQL database: upload (PKCS#12 +
// password), refusals as values, encryption at rest with the shared key, audit, account scoping.
import { buildPkcs12, createKeyring, decryptPrivateKey, generateEncryptionKey, generateTestCertificate } from "@fiskal/fiscal";
import { describe, expect, it } from "vitest";
import { portalUsers, usePortalTestDatabase } from "../testing";

const KEY = generateEncryptionKey();
const PASSWORD = "portal-lozinka-42";
const OIB = "69435151530";
const portal = usePortalTestDatabase({ env: { CERT_ENCRYPTION_KEY: KEY } });
const customer = portalUsers(portal, { account: "Certifikati", email: "cert" });

function p12(oib = OIB, notAfter?: Date) {
  const cert = generateTestCertificate({ oib, name: "Portal d.o.o." }, notAfter ? { notBefore: new Date(Date.now() - 86_400_000), notAfter } : undefined);
  return { cert, base64: buildPkcs12(cert.certPem, cert.keyPem, PASSWORD).toString("base64") };
}

describe("certificates", () => {
  it("uploads a certificate: shown without its key, stored encrypted under the shared key, audited", async () => {
    const { account, user, caller } = await customer("CUSTOMER", OIB);
    expect(await caller.certificates.get()).toEqual({ certificate: null, accountOib: OIB, warningDays: 30 });

    const { cert, base64 } = p12();
    const r = await caller.certificates.upload({ pkcs12: base64, password: PASSWORD });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    // Self-signed: not a FINA certificate, so the portal shows it as a test certificate.
    expect(r.certificate).toMatchObject({ subject: cert.subject, oib: OIB, state: "valid", test: true, notAfter: cert.notAfter.toISOString() });
    expect(JSON.stringify(r)).not.toMatch(/PRIVATE KEY|ciphertext/i);
    expect((await caller.certificates.get()).certificate).toEqual(r.certificate);

    const row = await portal.db.certificate.findUniqueOrThrow({ where: { accountId: account.id } });
    expect(row.keyPem).toBeNull();
    expect(decryptPrivateKey(createKeyring(KEY), account.id, { keyId: row.keyId!, ciphertext: row.keyCiphertext! })).toMatch(/BEGIN PRIVATE KEY/);
    const entries = await portal.db.auditLog.findMany({ where: { accountId: account.id, action: "certificate.uploaded" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: user.email, actorUserId: user.id, target: row.fingerprint });
    expect(JSON.stringify(entries[0])).not.toContain(PASSWORD);
  });

  it("answers a wrong password, another company's certificate or an expired one with a message, changing nothing", async () => {
    const { account, caller } = await customer("CUSTOMER", OIB);
    expect((await caller.certificates.upload({ pkcs12: p12().base64, password: PASSWORD })).ok).toBe(true);
    const before = await portal.db.certificate.findUniqueOrThrow({ where: { accountId: account.id } });

    expect(await caller.certificates.upload({ pkcs12: p12().base64, password: "kriva" })).toEqual({
      ok: false,
      field: "password",
      message: "Lozinka certifikata nije ispravna.",
    });
    const other = await caller.certificates.upload({ pkcs12: p12("94577403194").base64, password: PASSWORD });
    expect(other).toMatchObject({ ok: false, field: "file", message: expect.stringContaining("94577403194") });
    const expired = await caller.certificates.upload({ pkcs12: p12(OIB, new Date(Date.now() - 3_600_000)).base64, password: PASSWORD });
    expect(expired).toMatchObject({ ok: false, field: "file", message: expect.stringMatching(/istekao/) });
    const junk = await caller.certificates.upload({ pkcs12: Buffer.from("nije certifikat").toString("base64"), password: PASSWORD });
    expect(junk).toMatchObject({ ok: false, field: "file" });

    expect(await portal.db.certificate.findUniqueOrThrow({ where: { accountId: account.id } })).toEqual(before);
  });

  it("warns when fewer than 30 days are left", async () => {
    const { caller } = await customer();
    const r = await caller.certificates.upload({ pkcs12: p12(OIB, new Date(Date.now() + 12 * 86_400_000 + 3_600_000)).base64, password: PASSWORD });
    expect(r).toMatchObject({ ok: true, certificate: { state: "expiring", daysLeft: 12 } });
  });

  it("shows each account only its own certificate", async () => {
    const one = await customer();
    const two = await customer();
    await one.caller.certificates.upload({ pkcs12: p12().base64, password: PASSWORD });
    expect((await two.caller.certificates.get()).certificate).toBeNull();
  });
});
