// The archive's format, shared by the API (sealing, export, verify) and the portal (export).
export { appendToArchive, lockArchive, type ArchiveFile } from "./append.ts";
export { chainHash, GENESIS, retainUntil, sha256Hex } from "./chain.ts";
export { nextDay, zagrebDayStart } from "./days.ts";
export { exportArchive, type ExportPeriod } from "./export.ts";
export { CHAIN_FORMULA, CIS_ANSWER_FILE, CIS_REQUEST_FILE, MANIFEST_CSV, MANIFEST_FORMAT, MANIFEST_FORMAT_1, MANIFEST_JSON, manifestCsv, type Manifest, type ManifestEntry } from "./format.ts";
export { MAX_ZIP_ENTRIES, readZip, ZipWriter, type ZipFile } from "./zip.ts";
