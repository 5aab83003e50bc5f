// Verification of an archive export (format: @fiskal/accounts archive/format.ts): every file's
// SHA-256, the manifest's chain links, the span they cover, nothing missing or added, and the XML
// signature of every tax-authority message kept in its original form (the signed RacunZahtjev and
// CIS's signed answer): a file rewritten together with its manifest still fails on its signature.
import { z } from "zod";
import { chainHash, CIS_ANSWER_FILE, CIS_REQUEST_FILE, manifestCsv, MANIFEST_CSV, MANIFEST_FORMAT, MANIFEST_FORMAT_1, MANIFEST_JSON, readZip, sha256Hex } from "@fiskal/accounts";
import { soapBodyElement, verifyEnvelopedIntegrity } from "@fiskal/fiscal";

const Hash = z.string().regex(/^[0-9a-f]{64}$/);
const ManifestShape = z.object({
  format: z.enum([MANIFEST_FORMAT, MANIFEST_FORMAT_1]),
  account_id: z.string(),
  from: z.string(),
  to: z.string(),
  exported_at: z.string(),
  chain: z.object({ formula: z.string(), first_seq: z.number().int().nonnegative(), last_seq: z.number().int().nonnegative(), head_seq: z.number().int().nonnegative(), head_hash: z.string() }),
  entries: z.array(
    z.object({
      seq: z.number().int().positive(),
      name: z.string(),
      kind: z.string(),
      document_id: z.string(),
      issued_at: z.string(),
      retain_until: z.string(),
      size: z.number().int().nonnegative(),
      sha256: Hash,
      prev_hash: Hash,
      chain_hash: Hash,
      included: z.boolean(),
      evidence: z.enum(["xml", "json"]).optional(),
    }),
  ),
});
export interface Verification {
  ok: boolean;
  files: number;
  links: number;
  /** Tax-authority messages whose XML signature verifies with the certificate they carry, and who signed each. */
  signatures: { name: string; signer: string }[];
  problems: string[];
}

/** The signer of an archived message, or why its signature fails: the request is the signed element as sent, the answer CIS's whole SOAP envelope. */
function archivedSignature(kind: "request" | "answer", xml: string): { signer: string } | { problem: string } {
  try {
    return { signer: verifyEnvelopedIntegrity(kind === "answer" ? soapBodyElement(xml) : xml).signerSubject };
  } catch (err) {
    return { problem: (err as Error).message };
  }
}

/** Checks an export: the manifest's chain, each file against its hash, and nothing missing or extra. */
export function verifyExport(zip: Buffer): Verification {
  const problems: string[] = [];
  let files;
  try {
    files = readZip(zip);
  } catch (err) {
    return { ok: false, files: 0, links: 0, signatures: [], problems: [(err as Error).message] };
  }
  const byName = new Map(files.map((f) => [f.name, f]));
  const manifestFile = byName.get(MANIFEST_JSON);
  if (!manifestFile) return { ok: false, files: 0, links: 0, signatures: [], problems: [`${MANIFEST_JSON} is missing`] };
  const parsed = ManifestShape.safeParse((() => {
    try {
      return JSON.parse(manifestFile.content.toString("utf8")) as unknown;
    } catch {
      return null;
    }
  })());
  if (!parsed.success) return { ok: false, files: 0, links: 0, signatures: [], problems: [`${MANIFEST_JSON} is not a Fiskal archive manifest`] };
  const manifest = parsed.data;
  const entries = manifest.entries;
  const signatures: Verification["signatures"] = [];
  entries.forEach((e, i) => {
    const prev = entries[i - 1];
    if (prev && e.seq !== prev.seq + 1) problems.push(`chain: entry ${prev.seq + 1} is missing (after ${prev.seq} comes ${e.seq})`);
    if (prev && e.prev_hash !== prev.chain_hash) problems.push(`chain: entry ${e.seq} does not follow entry ${prev.seq}`);
    if (chainHash({ prevHash: e.prev_hash, seq: e.seq, name: e.name, sha256: e.sha256 }) !== e.chain_hash) problems.push(`chain: entry ${e.seq} (${e.name}) has a wrong chain hash`);
    if (!e.included) return;
    const file = byName.get(e.name);
    if (!file) return void problems.push(`${e.name}: missing from the export`);
    if (file.content.length !== e.size) problems.push(`${e.name}: ${file.content.length} bytes, the manifest says ${e.size}`);
    if (sha256Hex(file.content) !== e.sha256) problems.push(`${e.name}: SHA-256 differs from the manifest (the file was changed)`);
    const signed = e.name.endsWith(`/${CIS_REQUEST_FILE}`) ? "request" : e.name.endsWith(`/${CIS_ANSWER_FILE}`) ? "answer" : null;
    if (signed) {
      const checked = archivedSignature(signed, file.content.toString("utf8"));
      if ("signer" in checked) signatures.push({ name: e.name, signer: checked.signer });
      else problems.push(`${e.name}: its XML signature does not verify (${checked.problem})`);
    }
  });
  const span = manifest.chain;
  if ((entries[0]?.seq ?? 0) !== span.first_seq || (entries.at(-1)?.seq ?? 0) !== span.last_seq) {
    problems.push(`chain: the entries do not cover the span ${span.first_seq}–${span.last_seq} the manifest names`);
  }
  const last = entries.at(-1);
  if (last && last.seq === manifest.chain.head_seq && last.chain_hash !== manifest.chain.head_hash) problems.push("chain: the last entry is not the head the manifest names");
  const listed = new Set(entries.filter((e) => e.included).map((e) => e.name));
  for (const f of files) if (f.name !== MANIFEST_JSON && f.name !== MANIFEST_CSV && !listed.has(f.name)) problems.push(`${f.name}: not in the manifest`);
  const csv = byName.get(MANIFEST_CSV);
  if (!csv) problems.push(`${MANIFEST_CSV} is missing`);
  else if (csv.content.toString("utf8") !== manifestCsv(manifest)) problems.push(`${MANIFEST_CSV} does not match ${MANIFEST_JSON}`);
  return { ok: problems.length === 0, files: listed.size, links: entries.length, signatures, problems };
}
