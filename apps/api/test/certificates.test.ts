// Account certificates through the API and the CLI: upload (PKCS#12 + password), what is shown,
// what is refused, encryption at rest, key rotation, and that neither key nor password is logged.
import { Writable } from "node:stream";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@fiskal/accounts";
import {
  buildPkcs12,
  computeZki,
  createCisClient,
  createF2Client,
  createKeyring,
  decryptPrivateKey,
  generateEncryptionKey,
  generateTestCertificate,
  parsePkcs12,
  type CertificateKeyring,
} from "@fiskal/fiscal";
import { run } from "../src/cli.ts";
import { reencryptCertificateKeys } from "../src/procedures/certificates/store.ts";
import { call, startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

const PASSWORD = "Lozinka-Certifikata-7731";
const KEY1 = generateEncryptionKey();
/** The key the rotation test moves every stored key to. */
const KEY2 = generateEncryptionKey();
const logged: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    logged.push(chunk.toString());
    done();
  },
});

let h: Harness;
let keyring: CertificateKeyring;
beforeAll(async () => {
  keyring = createKeyring(KEY1);
  h = await startHarness({ config: { certificateKeys: keyring, logger: pino({ level: "trace" }, logStream) } });
});
afterAll(() => h.close());

/** A PKCS#12 for `oib`, valid from `from` to `to` (default: yesterday, for a year). */
function p12For(oib: string, opts: { from?: Date; to?: Date; password?: string } = {}) {
  const validity = opts.from || opts.to ? { notBefore: opts.from ?? new Date(Date.now() - 86_400_000), notAfter: opts.to ?? new Date(Date.now() + 365 * 86_400_000) } : undefined;
  const cert = generateTestCertificate({ oib, name: "Certifikat d.o.o." }, validity);
  return { cert, p12: buildPkcs12(cert.certPem, cert.keyPem, opts.password ?? PASSWORD) };
}
const put = (key: string, body: unknown) => call(h.url, "PUT", "/v1/certificate", { key, body });

describe("PUT /v1/certificate", () => {
  it("stores an uploaded certificate encrypted, shows what may be shown, audits it, and signs receipts with it", async () => {
    const acct = await h.account({ name: "Upload d.o.o." });
    expect((await call(h.url, "GET", "/v1/certificate", { key: acct.key })).status).toBe(404);

    const { cert, p12 } = p12For(VALID_OIB);
    const r = await put(acct.key, { pkcs12: p12.toString("base64"), password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    // Self-signed (the simulator takes any certificate): shown as what it is, not as FINA's.
    expect(r.body).toMatchObject({ subject: cert.subject, oib: VALID_OIB, issuer: "CN=FISKAL TEST,O=Fiskal,C=HR", state: "valid", test: true, trust: "untrusted", chain: [] });
    expect(r.body.not_after).toBe(cert.notAfter.toISOString());
    expect(r.body.days_left).toBeGreaterThanOrEqual(364);
    expect(r.text).not.toMatch(/PRIVATE KEY|keyPem|key_pem|ciphertext/i);
    expect(r.text).not.toContain(PASSWORD);
    expect((await call(h.url, "GET", "/v1/certificate", { key: acct.key })).body).toEqual(r.body);
    expect(await trpcClient(h.url, acct.key).certificates.get.query()).toEqual(r.body);
    expect((await call(h.url, "GET", "/v1/certificate?include=key", { key: acct.key })).body.error.details[0].path).toBe("include");

    const row = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: acct.id } });
    expect(row.keyPem).toBeNull();
    expect(row.keyId).toBe(keyring.currentId);
    expect(JSON.stringify(row)).not.toContain("PRIVATE KEY");
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(decryptPrivateKey(keyring, acct.id, { keyId: row.keyId!, ciphertext: row.keyCiphertext! })).toBe(parsePkcs12(p12, PASSWORD).keyPem);

    const audit = await h.api.services.db.auditLog.findMany({ where: { accountId: acct.id, action: "certificate.uploaded" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: "api", target: row.fingerprint });
    expect(JSON.stringify(audit[0])).not.toContain(PASSWORD);

    // Receipts are now signed with the uploaded key.
    const receipt = {
      oib: VALID_OIB,
      issued_at: new Date().toISOString(),
      number: "1",
      premises: "CERT1",
      device: "1",
      total: "10.00",
      payment_method: "G",
      operator_oib: "94577403194",
      vat_registered: false,
      sequence: "P",
    };
    const f = await call(h.url, "POST", "/v1/invoices/fiscalize", { key: acct.key, body: receipt });
    expect(f.status, f.text).toBe(200);
    expect(f.body.zki).toBe(computeZki({ ...receipt, issuedAt: new Date(receipt.issued_at) }, cert.keyPem));

    // Neither the password nor the key reached the log, at any level.
    const log = logged.join("");
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain("PRIVATE KEY");
    expect(log).not.toContain(p12.toString("base64").slice(0, 40));
  });

  it("refuses a wrong password, an unreadable file, an expired or future certificate and another company's — keeping the stored one", async () => {
    const acct = await h.account({ name: "Refused d.o.o." });
    await h.api.services.db.account.update({ where: { id: acct.id }, data: { oib: VALID_OIB } });
    const good = p12For(VALID_OIB);
    expect((await put(acct.key, { pkcs12: good.p12.toString("base64"), password: PASSWORD })).status).toBe(200);
    const stored = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: acct.id } });

    const cases: [unknown, string, string][] = [
      [{ pkcs12: good.p12.toString("base64"), password: "kriva" }, "password", "wrong_password"],
      [{ pkcs12: Buffer.from("ovo nije certifikat").toString("base64"), password: PASSWORD }, "pkcs12", "unreadable"],
      [{ pkcs12: "%%%", password: PASSWORD }, "pkcs12", "unreadable"],
      [{ pkcs12: p12For(VALID_OIB, { from: new Date("2020-01-01"), to: new Date("2021-01-01") }).p12.toString("base64"), password: PASSWORD }, "pkcs12", "expired"],
      [{ pkcs12: p12For(VALID_OIB, { from: new Date(Date.now() + 86_400_000) }).p12.toString("base64"), password: PASSWORD }, "pkcs12", "not_yet_valid"],
      [{ pkcs12: p12For("94577403194").p12.toString("base64"), password: PASSWORD }, "pkcs12", "oib_mismatch"],
    ];
    for (const [body, path, reason] of cases) {
      const r = await put(acct.key, body);
      expect(r.status, r.text).toBe(400);
      expect(r.body.error.code).toBe("validation_error");
      expect(r.body.error.details).toEqual([{ path, reason, message: r.body.error.message }]);
    }
    const unknown = await put(acct.key, { pkcs12: good.p12.toString("base64"), password: PASSWORD, private_key: "x" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([{ path: "private_key", message: expect.stringContaining('"private_key"') }]);
    const missing = await put(acct.key, { pkcs12: good.p12.toString("base64") });
    expect(missing.body.error.details[0].path).toBe("password");

    expect(await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: acct.id } })).toEqual(stored);
  });

  it("warns in its state when fewer than 30 days are left", async () => {
    const acct = await h.account({ name: "Expiring d.o.o." });
    const { p12 } = p12For(VALID_OIB, { to: new Date(Date.now() + 10 * 86_400_000 + 3_600_000) });
    const r = await put(acct.key, { pkcs12: p12.toString("base64"), password: PASSWORD });
    expect(r.body).toMatchObject({ state: "expiring", days_left: 10 });
  });

  it("reads an account's certificate only with that account's key", async () => {
    const one = await h.account({ name: "One d.o.o." });
    const two = await h.account({ name: "Two d.o.o." });
    await put(one.key, { pkcs12: p12For(VALID_OIB).p12.toString("base64"), password: PASSWORD });
    expect((await call(h.url, "GET", "/v1/certificate", { key: two.key })).status).toBe(404);
  });
});

describe("FINA certificates only where the tax authority takes only them", () => {
  let prod: Harness;
  const cisRequests: unknown[] = [];
  beforeAll(async () => {
    // The real CIS client for the production address: certificates are checked before any call.
    const pin = generateTestCertificate({ oib: VALID_OIB, name: "CIS" }).certPem;
    const client = createCisClient({ url: "https://cis.porezna-uprava.hr:8449/FiskalizacijaService", signer: { pinned: [pin] } });
    prod = await startHarness({
      config: {
        certificateKeys: keyring,
        taxAuthority: { certificates: client.certificates, fiscalize: (req) => (cisRequests.push(req), client.fiscalize(req)) },
        fiscalization: createF2Client({ url: "https://cis.porezna-uprava.hr:8449/FiskalizacijaServiceEprod", signer: { pinned: [pin] } }),
      },
    });
  });
  afterAll(() => prod?.close());

  it("production CIS: a self-signed certificate is refused on upload, and no test certificate is generated for a receipt", async () => {
    const acct = await prod.account({ name: "Produkcija d.o.o." });
    const { p12 } = p12For(VALID_OIB);
    const r = await call(prod.url, "PUT", "/v1/certificate", { key: acct.key, body: { pkcs12: p12.toString("base64"), password: PASSWORD } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details).toEqual([{ path: "pkcs12", reason: "untrusted_issuer", message: expect.stringContaining("FINA") }]);
    expect(r.body.error.message).toContain("izdavatelj: CN=FISKAL TEST");
    expect(await prod.api.services.db.certificate.count({ where: { accountId: acct.id } })).toBe(0);

    const receipt = { oib: VALID_OIB, issued_at: new Date().toISOString(), number: "1", premises: "P1", device: "1", total: "1.00", payment_method: "K", operator_oib: "94577403194", vat_registered: true, sequence: "P" };
    const f = await call(prod.url, "POST", "/v1/invoices/fiscalize", { key: acct.key, body: receipt });
    expect(f.status, f.text).toBe(400);
    expect(f.body.error.details).toEqual([expect.objectContaining({ path: "certificate", reason: "no_certificate" })]);
    expect(await prod.api.services.db.certificate.count({ where: { accountId: acct.id } })).toBe(0);
    expect(await prod.api.services.db.invoice.count({ where: { accountId: acct.id } })).toBe(0);

    // A self-signed certificate stored earlier (e.g. before the switch to production) signs nothing.
    const { cert } = p12For(VALID_OIB);
    const enc = (await import("@fiskal/fiscal")).encryptPrivateKey(keyring, acct.id, cert.keyPem);
    await prod.api.services.db.certificate.create({
      data: { accountId: acct.id, subject: cert.subject, issuer: "CN=FISKAL TEST,O=Fiskal,C=HR", oib: VALID_OIB, certPem: cert.certPem, keyCiphertext: enc.ciphertext, keyId: enc.keyId, notBefore: new Date(Date.now() - 60_000), notAfter: cert.notAfter, test: false },
    });
    const g = await call(prod.url, "POST", "/v1/invoices/fiscalize", { key: acct.key, body: { ...receipt, number: "2" } });
    expect(g.status, g.text).toBe(400);
    expect(g.body.error.details).toEqual([expect.objectContaining({ path: "certificate", reason: "untrusted_issuer" })]);
    expect(cisRequests).toHaveLength(0);
    const view = await call(prod.url, "GET", "/v1/certificate", { key: acct.key });
    expect(view.body).toMatchObject({ test: true, trust: "untrusted", chain: [] });
  });

  it("production Fiscalization 2.0: an e-invoice is refused before anything is stored when the account has no FINA certificate", async () => {
    const acct = await prod.account({ name: "E-računi d.o.o." });
    const body = JSON.parse(readFileSync(new URL("../../../examples/einvoices/01-standard-multi-rate.json", import.meta.url), "utf8")) as Record<string, unknown>;
    const r = await call(prod.url, "POST", "/v1/einvoices/send", { key: acct.key, body });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details).toEqual([expect.objectContaining({ path: "certificate", reason: "no_certificate" })]);
    expect(await prod.api.services.db.eInvoice.count({ where: { accountId: acct.id } })).toBe(0);
    expect(await prod.api.services.db.certificate.count({ where: { accountId: acct.id } })).toBe(0);
  });
});

describe("key rotation", () => {
  it("re-encrypts every stored key under the new key; the old key is then no longer needed", async () => {
    const acct = await h.account({ name: "Rotate d.o.o." });
    const { p12 } = p12For(VALID_OIB);
    await put(acct.key, { pkcs12: p12.toString("base64"), password: PASSWORD });
    // A key stored in plain text before encryption existed is encrypted by the same step.
    const legacy = await createAccount(h.api.services.db, { name: "Legacy d.o.o." });
    const old = generateTestCertificate({ oib: VALID_OIB, name: "Legacy" });
    await h.api.services.db.certificate.create({ data: { accountId: legacy.id, subject: old.subject, certPem: old.certPem, keyPem: old.keyPem, notAfter: old.notAfter } });

    const rotated = createKeyring(KEY2, KEY1);
    const result = await reencryptCertificateKeys(h.api.services.db, rotated);
    expect(result.failed).toEqual([]);
    expect(result.reencrypted).toBeGreaterThanOrEqual(2);
    const onlyNew = createKeyring(KEY2);
    for (const accountId of [acct.id, legacy.id]) {
      const row = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId } });
      expect(row.keyId).toBe(onlyNew.currentId);
      expect(row.keyPem).toBeNull();
      expect(decryptPrivateKey(onlyNew, accountId, { keyId: row.keyId!, ciphertext: row.keyCiphertext! })).toMatch(/BEGIN PRIVATE KEY/);
    }
    // Running it again changes nothing.
    expect((await reencryptCertificateKeys(h.api.services.db, rotated)).reencrypted).toBe(0);
    // Without the old key a row under it cannot be read, and is reported rather than lost.
    const stale = await createAccount(h.api.services.db, { name: "Stale d.o.o." });
    await h.api.services.db.certificate.create({
      data: { accountId: stale.id, subject: old.subject, certPem: old.certPem, keyCiphertext: "AAAA", keyId: "0000000000000000", notAfter: old.notAfter },
    });
    const partial = await reencryptCertificateKeys(h.api.services.db, onlyNew);
    expect(partial.failed).toEqual([{ id: expect.any(String), accountId: stale.id, error: expect.stringMatching(/CERT_ENCRYPTION_PREVIOUS_KEYS/) }]);
    await h.api.services.db.certificate.delete({ where: { accountId: stale.id } });
  });
});

describe("pnpm fiskal certificate", () => {
  const saved = { ...process.env };
  const dir = mkdtempSync(path.join(tmpdir(), "fiskal-cert-"));
  beforeAll(() => {
    process.env.DATABASE_URL = h.databaseUrl;
    process.env.CERT_ENCRYPTION_KEY = KEY1;
    delete process.env.CERT_ENCRYPTION_PREVIOUS_KEYS;
  });
  afterAll(() => {
    for (const k of ["DATABASE_URL", "CERT_ENCRYPTION_KEY", "CERT_ENCRYPTION_PREVIOUS_KEYS", "FISKAL_CERT_PASSWORD"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  async function cli(...args: string[]) {
    const lines: string[] = [];
    const code = await run([...args, "--json"], (l) => lines.push(l));
    return { code, out: JSON.parse(lines.join("\n")), text: lines.join("\n") };
  }

  it("uploads from a file with the password from a file, shows it, and re-encrypts under a new key", async () => {
    const acct = await h.account({ name: "CLI cert d.o.o." });
    const { cert, p12 } = p12For(VALID_OIB);
    const file = path.join(dir, "fiskal.p12");
    writeFileSync(file, p12);
    const pwFile = path.join(dir, "password");
    writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });

    const up = await cli("certificate", "upload", "--account", acct.id, "--file", file, "--password-file", pwFile);
    expect(up.code, up.text).toBe(0);
    expect(up.out).toMatchObject({ subject: cert.subject, oib: VALID_OIB, state: "valid" });
    expect(up.text).not.toContain(PASSWORD);
    const audit = await h.api.services.db.auditLog.findFirst({ where: { accountId: acct.id, action: "certificate.uploaded" } });
    expect(audit?.actor).toBe("cli");

    expect((await cli("certificate", "show", "--account", acct.id)).out.fingerprint_sha256).toBe(up.out.fingerprint_sha256);

    const wrong = await cli("certificate", "upload", "--account", acct.id, "--file", file);
    expect(wrong.code).toBe(2);
    expect(wrong.out.error).toMatch(/FISKAL_CERT_PASSWORD/);
    process.env.FISKAL_CERT_PASSWORD = "kriva";
    const bad = await cli("certificate", "upload", "--account", acct.id, "--file", file);
    expect(bad.code).toBe(2);
    expect(bad.out.error).toMatch(/wrong_password/);
    delete process.env.FISKAL_CERT_PASSWORD;

    // Rows of the other tests are under KEY1 or KEY2: a rotation names every key still in use.
    const key2 = generateEncryptionKey();
    process.env.CERT_ENCRYPTION_KEY = key2;
    process.env.CERT_ENCRYPTION_PREVIOUS_KEYS = `${KEY1}, ${KEY2}`;
    const re = await cli("certificate", "reencrypt");
    expect(re.code, re.text).toBe(0);
    expect(re.out.keyId).toBe(createKeyring(key2).currentId);
    const row = await h.api.services.db.certificate.findUniqueOrThrow({ where: { accountId: acct.id } });
    expect(row.keyId).toBe(createKeyring(key2).currentId);
    expect(decryptPrivateKey(createKeyring(key2), acct.id, { keyId: row.keyId!, ciphertext: row.keyCiphertext! })).toBe(parsePkcs12(p12, PASSWORD).keyPem);
  });
});
