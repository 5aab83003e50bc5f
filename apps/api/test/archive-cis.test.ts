// A receipt's archive holds its fiscalization in its original form: the signed RacunZahtjev exactly as
// it was sent to CIS and CIS's answer exactly as it came back (the local CIS: HTTPS, its own CA, XSD
// and xmlsec1 on every request) — for a receipt fiscalized at once, one delivered late (NakDost) and
// one whose answer went through the journal. The export holds both files with their SHA-256 in the
// manifest; the request verifies with xmlsec1 and validates against FiskalizacijaSchema.xsd, the
// answer is CIS's bytes, and a changed byte in either fails `pnpm fiskal archive verify` — on its
// hash, and on its XML signature even when the manifest is rewritten to match.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chainHash, manifestCsv, MANIFEST_FORMAT_1, readZip, sha256Hex, ZipWriter, type ZipFile } from "@fiskal/accounts";
import { CIS_XSD, forLibxml2, startLocalCis, type LocalCis, type LocalCisRequest } from "@fiskal/fiscal/testing/local-cis";
import { run } from "../src/cli.ts";
import { call, startHarness, VALID_OIB, type Harness } from "./harness.ts";

let cis: LocalCis;
let h: Harness;
let a: { id: string; key: string };
let work: string;
const journalDir = mkdtempSync(path.join(tmpdir(), "archive-cis-journal-"));

beforeAll(async () => {
  cis = await startLocalCis();
  h = await startHarness({
    config: {
      cis: { url: cis.url, ca: cis.caPem, signer: { ca: [cis.caPem], names: ["fiskalcistest"] }, timeoutMs: 1_500, connectTimeoutMs: 1_000 },
      journalDir,
    },
  });
  a = await h.account({ plan: "ENTERPRISE", custom: { burst: 100, perMinute: 1_000, perDay: 10_000 }, name: "Arhiva CIS d.o.o." });
  work = mkdtempSync(path.join(tmpdir(), "archive-cis-test-"));
});
afterAll(async () => {
  await h?.close();
  await cis?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(journalDir, { recursive: true, force: true });
});
beforeEach(() => cis.setMode({ kind: "check" }));

let receiptNo = 1;
const receipt = () => ({
  oib: VALID_OIB,
  issued_at: new Date(Date.now() - 60_000).toISOString(),
  number: String(receiptNo++),
  premises: "ARHIV",
  device: "1",
  total: "125.00",
  payment_method: "K",
  operator_oib: "94577403194",
  vat_registered: true,
  sequence: "P",
  vat: [{ rate: "25", base: "100.00", amount: "25.00" }],
});
const fiscalize = (body: unknown) => call(h.url, "POST", "/v1/invoices/fiscalize", { key: a.key, body });

/** The day before and after today: a period that holds every receipt issued now, whatever the time zone. */
const period = () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return `from=${day(-1)}&to=${day(1)}`;
};

async function exportZip(): Promise<Buffer> {
  const res = await fetch(`${h.url}/v1/archive/export?${period()}`, { headers: { authorization: `Bearer ${a.key}` } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function verify(zip: Buffer, name: string): Promise<{ code: number; out: { ok: boolean; problems: string[]; files: number; signatures: { name: string; signer: string }[] } }> {
  const file = path.join(work, name);
  writeFileSync(file, zip);
  const lines: string[] = [];
  const code = await run(["archive", "verify", file, "--json"], (l) => lines.push(l));
  return { code, out: JSON.parse(lines.join("\n")) };
}

/** The RacunZahtjev exactly as the HTTP body carried it (the SOAP Body's content). */
const sentBytes = (seen: LocalCisRequest) => /<soapenv:Body>([\s\S]*)<\/soapenv:Body>/.exec(seen.body)![1]!;

/** A ZIP whose one byte at `offset` inside `target`'s content is flipped. */
function flipByte(zip: Buffer, target: ZipFile, offset: number): Buffer {
  const changed = Buffer.from(zip);
  const at = target.content.byteOffset - zip.byteOffset + offset;
  changed[at] = changed[at]! ^ 0x01;
  return changed;
}

/** The signed request verifies with xmlsec1 (certificate from its KeyInfo) and validates against the official XSD. */
function checkRequest(xml: Buffer, name: string): void {
  const file = path.join(work, `${name}.xml`);
  writeFileSync(file, xml);
  const cert = /<X509Certificate>([^<]+)</.exec(xml.toString("utf8"))![1]!;
  const certFile = path.join(work, `${name}.pem`);
  writeFileSync(certFile, `-----BEGIN CERTIFICATE-----\n${cert.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`);
  execFileSync("xmlsec1", ["--verify", "--id-attr:Id", "RacunZahtjev", "--pubkey-cert-pem", certFile, file], { stdio: "pipe" });
  // xmllint on the form libxml2 can read (an X509SerialNumber over 24 digits: see forLibxml2)
  writeFileSync(`${file}.schema.xml`, forLibxml2(xml.toString("utf8")));
  execFileSync("xmllint", ["--noout", "--path", cis.schemaPath, "--schema", CIS_XSD, `${file}.schema.xml`], { stdio: "pipe" });
}

/** CIS's answer verifies with xmlsec1 against the CIS signer's certificate. */
function checkAnswer(xml: Buffer, name: string): void {
  const file = path.join(work, `${name}.xml`);
  writeFileSync(file, xml);
  const certFile = path.join(work, "cis-signer.pem");
  writeFileSync(certFile, cis.signerPem);
  execFileSync("xmlsec1", ["--verify", "--id-attr:Id", "http://www.apis-it.hr/fin/2012/types/f73:RacunOdgovor", "--pubkey-cert-pem", certFile, file], { stdio: "pipe" });
}

interface Entry {
  seq: number;
  name: string;
  document_id: string;
  sha256: string;
  size: number;
  included: boolean;
  evidence?: string;
}

describe("a receipt's CIS messages in the archive", () => {
  let zip: Buffer;
  let files: ZipFile[];
  let manifest: { format: string; entries: Entry[] };
  const ids: Record<"direct" | "late" | "journaled", { id: string; number: string; request: LocalCisRequest }> = {} as never;
  const folder = (number: string) => `/ARHIV-1-${number}/`;
  const file = (number: string, name: string) => files.find((f) => f.name.includes(folder(number)) && f.name.endsWith(`/${name}`));

  beforeAll(async () => {
    const db = h.api.services.db;

    // 1. Fiscalized at once.
    const direct = receipt();
    const res = await fiscalize(direct);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("fiscalized");
    ids.direct = { id: res.body.id, number: direct.number, request: cis.requests.at(-1)! };

    // 2. CIS out of order (s006): issued with the ZKI only; the signed request was recorded before the
    //    call. Then delivered late (NakDost): the request of that call replaces it, with CIS's answer.
    cis.setMode({ kind: "error", code: "s006" }, 1);
    const late = receipt();
    const deferred = await fiscalize(late);
    expect(deferred.status).toBe(200);
    expect(deferred.body.status).toBe("pending");
    const first = cis.requests.at(-1)!;
    const recorded = await db.receiptCisExchange.findUniqueOrThrow({ where: { invoiceId: deferred.body.id } });
    expect(Buffer.from(recorded.request).toString("utf8")).toBe(sentBytes(first));
    expect(recorded.answer).toBeNull();
    await db.invoice.update({ where: { id: deferred.body.id }, data: { nextAttemptAt: new Date() } });
    expect(await h.api.services.lateDelivery!.runOnce({ accountId: a.id })).toBe(1);
    const second = cis.requests.at(-1)!;
    expect(second.racunZahtjev).toContain("<tns:NakDost>true</tns:NakDost>");
    ids.late = { id: deferred.body.id, number: late.number, request: second };

    // 3. The database refuses to store the JIR (a trigger, for this receipt only): the answer goes to
    //    the journal with its messages, and the reconciler stores them once the database takes them.
    const journaled = receipt();
    const client = new pg.Client({ connectionString: h.databaseUrl });
    await client.connect();
    try {
      await client.query(`CREATE FUNCTION refuse_jir() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
      await client.query(
        `CREATE TRIGGER refuse_jir BEFORE UPDATE ON "Invoice" FOR EACH ROW WHEN (NEW.status = 'fiscalized' AND NEW.number = '${journaled.number}' AND NEW.premises = 'ARHIV') EXECUTE FUNCTION refuse_jir()`,
      );
      const answered = await fiscalize(journaled);
      expect(answered.status).toBe(200);
      expect(answered.body.status).toBe("fiscalized");
      expect((await db.invoice.findUniqueOrThrow({ where: { id: answered.body.id } })).status).toBe("pending");
      ids.journaled = { id: answered.body.id, number: journaled.number, request: cis.requests.at(-1)! };
    } finally {
      await client.query(`DROP TRIGGER IF EXISTS refuse_jir ON "Invoice"`);
      await client.query(`DROP FUNCTION IF EXISTS refuse_jir()`);
      await client.end();
    }
    await h.api.services.reconciler.runOnce();
    expect((await db.invoice.findUniqueOrThrow({ where: { id: ids.journaled.id } })).status).toBe("fiscalized");

    // 4. A receipt archived the way receipts were before: JSON evidence only.
    await db.invoice.create({
      data: {
        accountId: a.id,
        oib: VALID_OIB,
        number: "9000",
        premises: "ARHIV",
        device: "1",
        issuedAt: new Date(Date.now() - 120_000),
        total: "10.00",
        paymentMethod: "G",
        zki: "0".repeat(32),
        status: "fiscalized",
        jir: "6f0b5f2e-7d0c-4b9a-9d6e-3f1f4f6a2b11",
        fiscalizedAt: new Date(),
        request: { number: "9000" },
      },
    });

    zip = await exportZip();
    files = readZip(zip);
    manifest = JSON.parse(files.find((f) => f.name === "manifest.json")!.content.toString("utf8"));
  }, 60_000);

  it.each(["direct", "late", "journaled"] as const)("%s: the signed request as sent and CIS's answer as received, with their hashes in the manifest", (which) => {
    const { number, request } = ids[which];
    const sent = file(number, "cis-request.xml")!;
    const answer = file(number, "cis-answer.xml")!;
    expect(sent.content.toString("utf8")).toBe(sentBytes(request));
    expect(answer.content.equals(Buffer.from(request.answer!, "utf8"))).toBe(true);
    expect(answer.content.toString("utf8")).toContain(`<tns:Jir>${request.jir}</tns:Jir>`);
    checkRequest(sent.content, `${which}-request`);
    checkAnswer(answer.content, `${which}-answer`);
    for (const f of [sent, answer]) {
      const entry = manifest.entries.find((e) => e.name === f.name)!;
      expect(entry).toMatchObject({ included: true, evidence: "xml", size: f.content.length, sha256: sha256Hex(f.content) });
    }
    // the JSON record (JIR, ZKI, dates) stays beside them
    const record = JSON.parse(file(number, "fiscalization.json")!.content.toString("utf8"));
    expect(record.cis.jir).toBe(request.jir);
  });

  it("a receipt archived without CIS messages keeps its JSON evidence, and says so", () => {
    expect(file("9000", "request.json")).toBeDefined();
    expect(file("9000", "fiscalization.json")).toBeDefined();
    expect(file("9000", "cis-request.xml")).toBeUndefined();
    const entries = manifest.entries.filter((e) => e.name.includes(folder("9000")));
    expect(entries.map((e) => e.evidence)).toEqual(["json", "json"]);
    const csv = files.find((f) => f.name === "manifest.csv")!.content.toString("utf8");
    expect(csv.split("\r\n")[0]).toBe("\uFEFFseq,name,kind,document_id,issued_at,retain_until,size,sha256,chain_hash,evidence");
    expect(csv).toMatch(/\/ARHIV-1-9000\/request\.json,.*,json\r\n/);
    expect(csv).toMatch(new RegExp(`/ARHIV-1-${ids.direct.number}/cis-answer\\.xml,.*,xml\\r\\n`));
  });

  it("the export verifies, the XML signature of each CIS request and answer included", async () => {
    const verified = await verify(zip, "good.zip");
    expect(verified.out.problems).toEqual([]);
    expect(verified.code).toBe(0);
    expect(verified.out.files).toBe(3 * 4 + 2);
    // three receipts' requests, signed with the account's certificate, and CIS's three answers
    expect(verified.out.signatures.map((s) => s.name).sort()).toEqual(
      ["direct", "late", "journaled"].flatMap((w) => ["cis-answer.xml", "cis-request.xml"].map((n) => file(ids[w as keyof typeof ids].number, n)!.name)).sort(),
    );
    for (const s of verified.out.signatures) expect(s.signer).toMatch(s.name.endsWith("cis-answer.xml") ? /CN=fiskalcistest/ : /CN=/);
  });

  it.each(["cis-request.xml", "cis-answer.xml"])("one changed byte of %s fails verification", async (name) => {
    const target = file(ids.direct.number, name)!;
    const verified = await verify(flipByte(zip, target, 200), `changed-${name}.zip`);
    expect(verified.code).toBe(1);
    expect(verified.out.problems[0]).toBe(`${target.name}: SHA-256 differs from the manifest (the file was changed)`);
    expect(verified.out.problems).toHaveLength(2);
    expect(verified.out.problems[1]).toContain(`${target.name}: its XML signature does not verify (`);
  });

  it("an answer rewritten together with its manifest (hashes, chain and CSV recomputed) fails on its signature", async () => {
    const target = file(ids.direct.number, "cis-answer.xml")!;
    const forged = Buffer.from(target.content.toString("utf8").replace(`<tns:Jir>${ids.direct.request.jir}</tns:Jir>`, "<tns:Jir>00000000-0000-4000-8000-000000000000</tns:Jir>"), "utf8");
    expect(forged.equals(target.content)).toBe(false);
    const full = JSON.parse(files.find((f) => f.name === "manifest.json")!.content.toString("utf8")) as { chain: { head_seq: number; head_hash: string }; entries: (Entry & { prev_hash: string; chain_hash: string })[] };
    let prev = full.entries[0]!.prev_hash;
    for (const e of full.entries) {
      if (e.name === target.name) Object.assign(e, { sha256: sha256Hex(forged), size: forged.length });
      e.prev_hash = prev;
      e.chain_hash = chainHash({ prevHash: prev, seq: e.seq, name: e.name, sha256: e.sha256 });
      prev = e.chain_hash;
    }
    if (full.entries.at(-1)!.seq === full.chain.head_seq) full.chain.head_hash = prev;
    const w = new ZipWriter();
    const parts = files.map((f) =>
      w.file(f.name, f.name === target.name ? forged : f.name === "manifest.json" ? Buffer.from(JSON.stringify(full)) : f.name === "manifest.csv" ? Buffer.from(manifestCsv(full as never), "utf8") : f.content),
    );
    const verified = await verify(Buffer.concat([...parts, w.end()]), "rewritten.zip");
    expect(verified.out.problems).toEqual([`${target.name}: its XML signature does not verify (the signature does not verify)`]);
    expect(verified.code).toBe(1);
  });

  it("an export in the earlier format (no evidence column) still verifies", async () => {
    const old = { ...manifest, format: MANIFEST_FORMAT_1, entries: manifest.entries.map(({ evidence: _e, ...rest }) => rest) };
    const w = new ZipWriter();
    const parts = files.map((f) =>
      w.file(f.name, f.name === "manifest.json" ? Buffer.from(JSON.stringify(old)) : f.name === "manifest.csv" ? Buffer.from(manifestCsv(old as never), "utf8") : f.content),
    );
    const verified = await verify(Buffer.concat([...parts, w.end()]), "format-1.zip");
    expect(verified.out.problems).toEqual([]);
    expect(verified.code).toBe(0);
  });
});
