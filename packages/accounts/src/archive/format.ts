// The manifest of an archive export: JSON for programs, CSV for an accountant's spreadsheet. Every
// file's SHA-256, and the chain links from the first to the last entry of the period — entries of
// other periods inside that span are listed by hash only.
//
// Format 2 adds each entry's `evidence`: "xml" for a receipt whose signed CIS request and CIS's
// answer are in the archive (CIS_REQUEST_FILE, CIS_ANSWER_FILE in its folder), "json" for a document
// whose fiscalization evidence is Fiskal's JSON record only (receipts archived before the CIS messages
// were kept or fiscalized by the simulator, e-invoices). Verification reads both formats.

export const MANIFEST_FORMAT = "fiskal-archive/2";
/** Exports written before `evidence` existed. */
export const MANIFEST_FORMAT_1 = "fiskal-archive/1";

/** A receipt's CIS messages in its folder: the signed RacunZahtjev as sent, the SOAP answer as received. */
export const CIS_REQUEST_FILE = "cis-request.xml";
export const CIS_ANSWER_FILE = "cis-answer.xml";
export const MANIFEST_JSON = "manifest.json";
export const MANIFEST_CSV = "manifest.csv";
export const CHAIN_FORMULA = "chain_hash = sha256_hex(prev_hash + \"\\n\" + seq + \"\\n\" + name + \"\\n\" + sha256); prev_hash of seq 1 = 64 × \"0\"";

export interface ManifestEntry {
  seq: number;
  name: string;
  kind: string;
  document_id: string;
  issued_at: string;
  retain_until: string;
  size: number;
  sha256: string;
  prev_hash: string;
  chain_hash: string;
  /** In this export (inside the period); false: a link of the chain only. */
  included: boolean;
  /** The document's fiscalization evidence: "xml" (the tax authority's messages) or "json" (format 2). */
  evidence?: "xml" | "json";
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT | typeof MANIFEST_FORMAT_1;
  account_id: string;
  from: string;
  to: string;
  exported_at: string;
  chain: {
    formula: string;
    /** The span of the chain the entries cover (0 and 0 when the period is empty). */
    first_seq: number;
    last_seq: number;
    /** The account's last entry when exported: a later export must continue from it. */
    head_seq: number;
    head_hash: string;
  };
  entries: ManifestEntry[];
}

const CSV_COLUMNS_1 = ["seq", "name", "kind", "document_id", "issued_at", "retain_until", "size", "sha256", "chain_hash"] as const;
const CSV_COLUMNS = [...CSV_COLUMNS_1, "evidence"] as const;

function csvField(value: string | number | undefined): string {
  const text = String(value ?? "");
  return /[",;\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The files of the export, one line each; a BOM so that spreadsheet programs read UTF-8. */
export function manifestCsv(manifest: Manifest): string {
  const columns = manifest.format === MANIFEST_FORMAT_1 ? CSV_COLUMNS_1 : CSV_COLUMNS;
  const lines = [columns.join(",")];
  for (const e of manifest.entries) if (e.included) lines.push(columns.map((c) => csvField(e[c])).join(","));
  return "\uFEFF" + lines.join("\r\n") + "\r\n";
}
