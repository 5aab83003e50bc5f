// `pnpm fiskal archive verify FILE.zip`: checks an archive export offline — every file against the
// manifest's SHA-256, the manifest's hash chain and the XML signature of every tax-authority
// message — and exits 1 on any problem.
import { createWriteStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { once } from "node:events";
import { exportArchive } from "@fiskal/accounts";
import type { Db } from "@fiskal/db";
import { verifyExport } from "./manifest.ts";
import { sealAccount } from "./seal.ts";

export const ARCHIVE_USAGE = `  pnpm fiskal archive verify FILE.zip
  pnpm fiskal archive export --account ID --from GGGG-MM-DD --to GGGG-MM-DD --out FILE.zip

archive verify checks an export of GET /v1/archive/export (or the portal's Dokumenti page): each
file's SHA-256, the hash chain of the manifest, nothing missing or added, and the XML signature of
each signed request and CIS answer kept in the original form; exit 1 on any problem.`;

export async function archiveVerifyCommand(file: string | undefined, print: (human: string, data: unknown) => void, fail: (message: string) => Error): Promise<number> {
  if (!file) throw fail("archive verify needs the ZIP file: pnpm fiskal archive verify FILE.zip");
  let zip: Buffer;
  try {
    zip = await readFile(file);
  } catch (err) {
    throw fail(`cannot read ${file}: ${(err as Error).message}`);
  }
  const result = verifyExport(zip);
  print(
    result.ok
      ? `OK: ${result.files} files match the manifest; chain of ${result.links} entries intact; ${result.signatures.length} XML signature${result.signatures.length === 1 ? "" : "s"} of tax-authority messages verify${signers(result.signatures)}.`
      : `FAILED (${result.problems.length} problem${result.problems.length === 1 ? "" : "s"}):\n${result.problems.map((p) => `  ${p}`).join("\n")}`,
    result,
  );
  return result.ok ? 0 : 1;
}

/** " (signed by: A; B)", each signer once. */
function signers(signatures: { signer: string }[]): string {
  const names = [...new Set(signatures.map((s) => s.signer))];
  return names.length ? ` (signed by: ${names.join("; ")})` : "";
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The operator's export of an account's archive (sealed first), written to a file. */
export async function archiveExportCommand(
  db: Db,
  opts: { accountId: string; from: unknown; to: unknown; out: unknown },
  print: (human: string, data: unknown) => void,
  fail: (message: string) => Error,
): Promise<number> {
  const { from, to, out } = opts;
  if (typeof from !== "string" || typeof to !== "string" || !DAY.test(from) || !DAY.test(to) || from > to || from < "2000-01-01" || to > "2099-12-31") {
    throw fail("--from and --to are days GGGG-MM-DD (2000–2099), --from not after --to");
  }
  if (typeof out !== "string" || out === "") throw fail("--out FILE.zip is required");
  await sealAccount(db, opts.accountId);
  const file = createWriteStream(out);
  let bytes = 0;
  for await (const chunk of exportArchive(db, opts.accountId, { from, to })) {
    bytes += chunk.length;
    if (!file.write(chunk)) await once(file, "drain");
  }
  file.end();
  await once(file, "finish");
  print(`Wrote ${out} (${bytes} bytes); check it with pnpm fiskal archive verify ${out}`, { file: out, bytes });
  return 0;
}
