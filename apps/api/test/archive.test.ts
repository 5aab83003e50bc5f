// The archive: documents sealed into a per-account hash chain, kept (no change, no deletion before
// art. 35's six years), exported per period as a ZIP with a manifest, and verified — an export of
// 1,000 mixed documents verifies, and fails after one byte of one document changes or a document
// goes missing.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../src/cli.ts";
import { chainHash, readZip, retainUntil, sha256Hex, ZipWriter } from "@fiskal/accounts";
import { startHarness, trpcClient, VALID_OIB, type Harness } from "./harness.ts";

let h: Harness;
let a: { id: string; key: string };
let b: { id: string; key: string };
const dir = mkdtempSync(path.join(tmpdir(), "fiskal-archive-"));
const big = { burst: 1_000, perMinute: 10_000, perDay: 1_000_000 };

beforeAll(async () => {
  h = await startHarness();
  a = await h.account({ plan: "ENTERPRISE", custom: big, name: "Arhiva A d.o.o." });
  b = await h.account({ plan: "ENTERPRISE", custom: big, name: "Arhiva B d.o.o." });
});
afterAll(() => h.close());

const sql = (text: string, ...values: unknown[]) => h.api.services.db.$executeRawUnsafe(text, ...values);

/** n fiscalized receipts; even g issued in November 2026, odd g in October, created in g order. */
function receipts(accountId: string, n: number, start = 0) {
  return sql(
    `INSERT INTO "Invoice" (id, "accountId", oib, number, premises, device, "issuedAt", total, "paymentMethod", zki, status, jir, "messageId", "fiscalizedAt", request, "createdAt")
     SELECT gen_random_uuid(), $1::uuid, '${VALID_OIB}', ($2::int + g)::text, 'ARH', '1',
            CASE WHEN g % 2 = 0 THEN timestamptz '2026-11-01 08:00:00+01' ELSE timestamptz '2026-10-01 08:00:00+02' END + ((g % 1000) || ' minutes')::interval,
            12.50, 'K', md5(g::text), 'fiscalized', gen_random_uuid()::text, gen_random_uuid(), now(),
            jsonb_build_object('number', ($2::int + g)::text, 'total', '12.50'), timestamptz '2026-11-25 10:00:00Z' + ((2 * g) || ' milliseconds')::interval
     FROM generate_series(1, $3::int) AS g`,
    accountId,
    start,
    n,
  );
}

/** n e-invoices accepted by the intermediary, a third of them recorded by the tax authority; issued in November. */
function einvoices(accountId: string, n: number, start = 0) {
  return sql(
    `INSERT INTO "EInvoice" (id, "accountId", number, "sellerOib", "buyerOib", "issueDate", "issueTime", currency, "totalNet", "totalTax", "totalGross", ubl, status, request, "intermediaryId", "sentAt", "fiscalizationStatus", "fiscalizedAt", "createdAt")
     SELECT gen_random_uuid(), $1::uuid, 'ARH/' || ($2::int + g), '${VALID_OIB}', '94577403194', to_char(date '2026-11-01' + (g % 28), 'YYYY-MM-DD'), '09:30:00', 'EUR', 100, 25, 125,
            '<?xml version="1.0" encoding="UTF-8"?>' || chr(10) || '<Invoice><cbc:ID>ARH/' || ($2::int + g) || '</cbc:ID><Note>Račun čćžšđ</Note></Invoice>',
            'accepted', '{}'::jsonb, gen_random_uuid()::text, now(),
            CASE WHEN g % 3 = 0 THEN 'recorded' ELSE 'pending' END, CASE WHEN g % 3 = 0 THEN now() END,
            timestamptz '2026-11-25 10:00:00Z' + ((2 * g + 1) || ' milliseconds')::interval
     FROM generate_series(1, $3::int) AS g`,
    accountId,
    start,
    n,
  );
}

async function download(key: string, query: string): Promise<{ status: number; type: string | null; disposition: string | null; body: Buffer }> {
  const res = await fetch(`${h.url}/v1/archive/export?${query}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, type: res.headers.get("content-type"), disposition: res.headers.get("content-disposition"), body: Buffer.from(await res.arrayBuffer()) };
}

async function verify(zip: Buffer, name: string): Promise<{ code: number; out: any }> {
  const file = path.join(dir, name);
  writeFileSync(file, zip);
  const lines: string[] = [];
  const code = await run(["archive", "verify", file, "--json"], (l) => lines.push(l));
  return { code, out: JSON.parse(lines.join("\n")) };
}

describe("export and verify", () => {
  let zip: Buffer;
  beforeAll(async () => {
    // 1,200 receipts (600 in November) and 400 e-invoices: 1,000 documents in November, mixed.
    await receipts(a.id, 1_200);
    await einvoices(a.id, 400);
    await receipts(b.id, 20, 5_000);
    const res = await download(a.key, "from=2026-11-01&to=2026-11-30");
    expect(res.status).toBe(200);
    expect(res.type).toBe("application/zip");
    expect(res.disposition).toBe('attachment; filename="fiskal-arhiva-2026-11-01-2026-11-30.zip"');
    zip = res.body;
  }, 60_000);

  it("holds November's 1,000 documents with their evidence and a manifest, and verifies", async () => {
    const files = readZip(zip);
    const names = files.map((f) => f.name);
    expect(names.filter((n) => n.endsWith("/request.json"))).toHaveLength(600);
    expect(names.filter((n) => n.endsWith("/invoice.xml"))).toHaveLength(400);
    // a third of the e-invoices (g % 3 = 0) recorded by the tax authority: their evidence too
    expect(names.filter((n) => n.startsWith("einvoices/") && n.endsWith("/fiscalization.json"))).toHaveLength(133);
    expect(names.filter((n) => n.startsWith("receipts/2026-10/"))).toHaveLength(0);
    expect(names.slice(-2)).toEqual(["manifest.json", "manifest.csv"]);
    const manifest = JSON.parse(files.find((f) => f.name === "manifest.json")!.content.toString("utf8"));
    const documents = new Set(manifest.entries.filter((e: { included: boolean }) => e.included).map((e: { document_id: string }) => e.document_id));
    expect(documents.size).toBe(1_000);
    // October's receipts lie between November's documents in the chain: listed as links, not included
    expect(manifest.entries.some((e: { included: boolean }) => !e.included)).toBe(true);
    // the UBL exactly as stored, byte for byte
    const row = await h.api.services.db.eInvoice.findFirstOrThrow({ where: { accountId: a.id, number: "ARH/7" } });
    expect(files.find((f) => f.name.endsWith(`/ARH_7-${row.id.slice(0, 8)}/invoice.xml`))!.content.toString("utf8")).toBe(row.ubl);
    expect(manifest.entries[0].retain_until).toBe(retainUntil(2026));
    const csv = files.find((f) => f.name === "manifest.csv")!.content.toString("utf8");
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(names.length - 2 + 1);

    const verified = await verify(zip, "good.zip");
    expect(verified.out.problems).toEqual([]);
    expect(verified.code).toBe(0);
    expect(verified.out.files).toBe(names.length - 2);
  });

  it("fails after one byte of one document is changed", async () => {
    const files = readZip(zip);
    const target = files.find((f) => f.name.endsWith("/invoice.xml"))!;
    const changed = Buffer.from(zip);
    const at = target.content.byteOffset - zip.byteOffset + 40;
    changed[at] = changed[at]! ^ 0x01;
    const verified = await verify(changed, "changed.zip");
    expect(verified.code).toBe(1);
    expect(verified.out.problems).toEqual([`${target.name}: SHA-256 differs from the manifest (the file was changed)`]);
  });

  it("fails when a document is missing, or when it is removed from the manifest too", async () => {
    const files = readZip(zip);
    const manifest = JSON.parse(files.find((f) => f.name === "manifest.json")!.content.toString("utf8"));
    const victim = manifest.entries.filter((e: { included: boolean; name: string }) => e.included && e.name.endsWith("/request.json"))[100];
    const rebuild = (drop: (name: string) => boolean, manifestText?: string) => {
      const w = new ZipWriter();
      const parts = files.filter((f) => !drop(f.name)).map((f) => w.file(f.name, f.name === "manifest.json" && manifestText ? Buffer.from(manifestText) : f.content));
      return Buffer.concat([...parts, w.end()]);
    };
    const missing = await verify(rebuild((n) => n === victim.name), "missing.zip");
    expect(missing.code).toBe(1);
    expect(missing.out.problems).toEqual([`${victim.name}: missing from the export`]);

    const cut = { ...manifest, entries: manifest.entries.filter((e: { seq: number }) => e.seq !== victim.seq) };
    const hidden = await verify(rebuild((n) => n === victim.name, JSON.stringify(cut)), "hidden.zip");
    expect(hidden.code).toBe(1);
    expect(hidden.out.problems).toContain(`chain: entry ${victim.seq} is missing (after ${victim.seq - 1} comes ${victim.seq + 1})`);
    // Cutting the first entry of the span instead is caught by the span the manifest names.
    const first = manifest.entries[0];
    const headless = { ...manifest, entries: manifest.entries.slice(1) };
    const cutFirst = await verify(rebuild((n) => n === first.name, JSON.stringify(headless)), "headless.zip");
    expect(cutFirst.code).toBe(1);
    expect(cutFirst.out.problems).toContain(`chain: the entries do not cover the span ${manifest.chain.first_seq}–${manifest.chain.last_seq} the manifest names`);
  });

  it("keeps the chain across exports: nothing sealed twice, new documents continue it", async () => {
    const db = h.api.services.db;
    const before = await db.archiveEntry.count({ where: { accountId: a.id } });
    const again = await download(a.key, "from=2026-11-01&to=2026-11-30");
    expect(await db.archiveEntry.count({ where: { accountId: a.id } })).toBe(before);
    await einvoices(a.id, 3, 10_000);
    const trpc = trpcClient(h.url, a.key);
    const summary = await trpc.archive.export.query({ from: "2026-11-01", to: "2026-11-30" });
    expect(summary).toMatchObject({ content_type: "application/zip", documents: 1_003, head_seq: before + 7 });
    const rows = await db.archiveEntry.findMany({ where: { accountId: a.id }, orderBy: { seq: "asc" }, select: { seq: true, name: true, sha256: true, prevHash: true, chainHash: true, content: true } });
    rows.forEach((r, i) => {
      expect(r.seq).toBe(i + 1);
      expect(r.sha256).toBe(sha256Hex(r.content));
      expect(r.prevHash).toBe(i === 0 ? "0".repeat(64) : rows[i - 1]!.chainHash);
      expect(r.chainHash).toBe(chainHash(r));
    });
    expect((await verify(again.body, "again.zip")).code).toBe(0);
    // only the caller's documents
    expect(await db.archiveEntry.count({ where: { accountId: b.id } })).toBe(0);
    const other = await download(b.key, "from=2026-10-01&to=2026-11-30");
    expect(readZip(other.body).filter((f) => f.name.startsWith("receipts/"))).toHaveLength(40);
  });

  it("refuses a bad period with 400 in the envelope", async () => {
    for (const q of ["from=2026-11-30&to=2026-11-01", "from=2026-11-01", "from=x&to=2026-11-01", "from=2026-11-01&to=2026-11-30&extra=1"]) {
      const res = await download(a.key, q);
      expect(res.status, q).toBe(400);
      expect(JSON.parse(res.body.toString("utf8")).error.code, q).toBe("validation_error");
    }
  });
});

describe("retention", () => {
  it("refuses to change an entry, and to delete one before the end of the sixth year after its year", async () => {
    const db = h.api.services.db;
    const entry = await db.archiveEntry.findFirstOrThrow({ where: { accountId: a.id } });
    await expect(sql(`UPDATE "ArchiveEntry" SET sha256 = $1 WHERE id = $2::uuid`, "0".repeat(64), entry.id)).rejects.toThrow(/cannot be changed/);
    await expect(sql(`DELETE FROM "ArchiveEntry" WHERE id = $1::uuid`, entry.id)).rejects.toThrow(/must be kept until 2032-12-31/);
    await expect(sql(`TRUNCATE "ArchiveEntry"`)).rejects.toThrow(/cannot be truncated/);
    expect(await db.archiveEntry.count({ where: { id: entry.id } })).toBe(1);
    // An entry whose period has passed may go.
    const old = await db.archiveEntry.create({
      data: { accountId: b.id, seq: 9_999, documentKind: "receipt", documentId: entry.documentId, name: "old", contentType: "text/plain", content: new Uint8Array([1]), sha256: "x", prevHash: "x", chainHash: "x", issuedAt: new Date("2018-05-01"), retainUntil: new Date(`${retainUntil(2018)}T00:00:00Z`) },
    });
    expect(retainUntil(2018)).toBe("2024-12-31");
    await sql(`DELETE FROM "ArchiveEntry" WHERE id = $1::uuid`, old.id);
    expect(await db.archiveEntry.count({ where: { id: old.id } })).toBe(0);
  });

  it("keeps the archive of a closed account", async () => {
    const c = await h.account({ plan: "ENTERPRISE", custom: big, name: "Zatvorena d.o.o." });
    await receipts(c.id, 4, 20_000);
    expect((await download(c.key, "from=2026-10-01&to=2026-11-30")).status).toBe(200);
    await h.api.services.db.account.delete({ where: { id: c.id } });
    expect(await h.api.services.db.archiveEntry.count({ where: { accountId: c.id } })).toBe(8);
  });
});

describe("sealing on a schedule", () => {
  it("seals every account's final documents without an export, and nothing twice", async () => {
    const { sealAll } = await import("../src/archive/job.ts");
    const d = await h.account({ plan: "ENTERPRISE", custom: big, name: "Pečat d.o.o." });
    await receipts(d.id, 5, 30_000);
    await einvoices(d.id, 3, 30_000);
    const db = h.api.services.db;
    expect(await db.archiveEntry.count({ where: { accountId: d.id } })).toBe(0);
    expect(await sealAll(db)).toBeGreaterThanOrEqual(17);
    expect(await db.archiveEntry.count({ where: { accountId: d.id } })).toBe(5 * 2 + 3 * 2 + 1);
    expect(await sealAll(db)).toBe(0);
  });
});

describe("operator export", () => {
  it("writes a closed account's archive to a file that verifies", async () => {
    const c = await h.account({ plan: "ENTERPRISE", custom: big, name: "Zatvoreni izvoz d.o.o." });
    await receipts(c.id, 6, 40_000);
    // the scheduled pass seals them while the account exists; then it is closed
    const { sealAll } = await import("../src/archive/job.ts");
    await sealAll(h.api.services.db, { accountId: c.id });
    await h.api.services.db.account.delete({ where: { id: c.id } });
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = h.databaseUrl;
    try {
      const out = path.join(dir, "operator.zip");
      const lines: string[] = [];
      const code = await run(["archive", "export", "--account", c.id, "--from", "2026-10-01", "--to", "2026-11-30", "--out", out, "--json"], (l) => lines.push(l));
      expect(code).toBe(0);
      expect(JSON.parse(lines[0]!).file).toBe(out);
      const files = readZip(readFileSync(out));
      expect(files.filter((f) => f.name.endsWith("/request.json"))).toHaveLength(6);
      expect((await verify(readFileSync(out), "operator-again.zip")).code).toBe(0);
      const bad: string[] = [];
      expect(await run(["archive", "export", "--account", c.id, "--from", "2026-12-01", "--to", "2026-11-01", "--out", out], (l) => bad.push(l))).toBe(2);
    } finally {
      process.env.DATABASE_URL = saved;
    }
  });
});
