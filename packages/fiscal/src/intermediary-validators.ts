// The checks an e-invoice intermediary (access point) runs on a UBL document before it accepts it.
//
// Three levels, because the official validators need a JVM and the XSD a process per document:
// - `quickUblProblems` (the simulator's default, in-process, under 1 ms): the structural rules of
//   HR CIUS / EN 16931 that decide whether a document can be routed at all (CustomizationID, process,
//   issue time, operator, electronic addresses, unit codes, VAT categories, the HR extension).
// - `xsdUblValidator`: the same plus the UBL 2.1 XSD through xmllint when it is installed (~0.25 s per
//   document on an idle machine, seconds under a burst of concurrent sends).
// - `runOfficialValidators` (CI, and the simulator when `validate: officialValidator()` is chosen):
//   UBL 2.1 XSD + EN 16931 1.3.15 + HR CIUS 1.0.3 schematron with Saxon HE, many files in one JVM.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EINVOICE_FIRST_DATE, HR_CIUS_CUSTOMIZATION_ID, VAT_CATEGORIES } from "./einvoice.ts";
import { checkOib } from "./oib.ts";
import { UNIT_CODES } from "./unit-codes.ts";

/** One failed rule: its official id, its flag ("fatal" refuses the document) and its text. */
export interface UblViolation {
  rule: string;
  flag: "fatal" | "warning";
  message: string;
}

/** The project's copy of the official artifacts (reference/ at the repository root). */
export const REFERENCE_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "reference");
/** Where Debian's libsaxonhe-java installs Saxon HE. */
const SAXON_JAR = "/usr/share/java/Saxon-HE.jar";

const fatal = (rule: string, message: string): UblViolation => ({ rule, flag: "fatal", message });
const first = (xml: string, re: RegExp) => re.exec(xml)?.[1];

/**
 * Structural HR CIUS / EN 16931 rules read from the document text (the documents are the
 * project's own, so their shape is known): what an access point refuses before routing.
 */
export function quickUblProblems(ubl: string): UblViolation[] {
  const out: UblViolation[] = [];
  const root = first(ubl, /<(?:\w+:)?(Invoice|CreditNote)[\s>]/);
  if (!root) return [fatal("UBL-ROOT", "document is neither a UBL Invoice nor a CreditNote")];
  if (first(ubl, /<cbc:CustomizationID>([^<]*)</) !== HR_CIUS_CUSTOMIZATION_ID) out.push(fatal("HR-BR-5", "CustomizationID is not the HR CIUS 2025 identifier"));
  const profile = first(ubl, /<cbc:ProfileID>([^<]*)</);
  if (!profile || !/^(P([1-9]|1[0-2])|P99:.+)$/.test(profile)) out.push(fatal("HR-BR-34", "ProfileID (BT-23) must be P1–P12 or P99:…"));
  const id = first(ubl, /<\/cbc:ProfileID>\s*<cbc:ID>([^<]*)</);
  if (!id || /\s/.test(id)) out.push(fatal("HR-BR-1", "invoice number is missing or contains whitespace"));
  const issueDate = first(ubl, /<cbc:IssueDate>([^<]*)</);
  if (!issueDate || issueDate < EINVOICE_FIRST_DATE || issueDate >= "2100-01-01") out.push(fatal("HR-BR-40", `issue date must be from ${EINVOICE_FIRST_DATE}`));
  if (!/<cbc:IssueTime>\d{2}:\d{2}:\d{2}</.test(ubl)) out.push(fatal("HR-BR-2", "issue time (HR-BT-2) hh:mm:ss is missing"));
  const contact = first(ubl, /<cac:SellerContact>([\s\S]*?)<\/cac:SellerContact>/) ?? "";
  if (!/<cbc:Name>[^<]+</.test(contact)) out.push(fatal("HR-BR-37", "operator label (HR-BT-4) is missing"));
  const operatorOib = first(contact, /<cbc:ID>([^<]*)</);
  if (!operatorOib || !checkOib(operatorOib).valid) out.push(fatal("HR-BR-9", "operator OIB (HR-BT-5) is missing or not a valid OIB"));
  const supplier = first(ubl, /<cac:AccountingSupplierParty>([\s\S]*?)<\/cac:AccountingSupplierParty>/) ?? "";
  const customer = first(ubl, /<cac:AccountingCustomerParty>([\s\S]*?)<\/cac:AccountingCustomerParty>/) ?? "";
  if (!/<cbc:EndpointID schemeID="[^"]+">[^<]+</.test(supplier)) out.push(fatal("HR-BR-7", "seller electronic address (BT-34) is missing"));
  if (!/<cbc:EndpointID schemeID="[^"]+">[^<]+</.test(customer)) out.push(fatal("HR-BR-10", "buyer electronic address (BT-49) is missing"));
  const badUnits = [...ubl.matchAll(/unitCode="([^"]*)"/g)].map((m) => m[1]!).filter((u) => !UNIT_CODES.has(u));
  if (badUnits.length) out.push(fatal("BR-CL-23", `unit code ${[...new Set(badUnits)].map((u) => JSON.stringify(u)).join(", ")} is not in UN/ECE Rec 20/21`));
  const categories = [...ubl.matchAll(/<cac:(?:Classified)?TaxCategory>\s*<cbc:ID>([^<]*)</g)].map((m) => m[1]!);
  const badCategories = categories.filter((c) => !(VAT_CATEGORIES as readonly string[]).includes(c));
  if (badCategories.length) out.push(fatal("BR-CL-18", `VAT category ${[...new Set(badCategories)].join(", ")} is not allowed`));
  if (categories.includes("E") && !ubl.includes("HRFISK20Data")) out.push(fatal("HR-BR-26", "exempt (E) items need the HR VAT breakdown (HR-BG-2)"));
  return out;
}

function run(cmd: string, args: string[], opts: { input?: string; timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024, timeout: opts.timeoutMs ?? 600_000 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === "ENOENT") return reject(err);
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

let xmllintMissing = false;

/**
 * The UBL 2.1 XSD (with the HR extension schema) through xmllint, or [] when xmllint or the schemas
 * are not installed here (then only `quickUblProblems` guards the door; CI runs the full validators).
 */
export async function xsdProblems(ubl: string, referenceDir: string = REFERENCE_DIR): Promise<UblViolation[]> {
  const root = /<(?:\w+:)?(Invoice|CreditNote)[\s>]/.exec(ubl)?.[1];
  if (!root) return [];
  const xsd = join(referenceDir, "ubl-xsd", "maindoc", `UBL-${root}-2.1.xsd`);
  if (xmllintMissing || !existsSync(xsd)) return [];
  try {
    const r = await run("xmllint", ["--noout", "--nonet", "--schema", xsd, "-"], { input: ubl, timeoutMs: 20_000 });
    if (r.code === 0) return [];
    const errors = r.stderr.split("\n").filter((l) => /error/i.test(l) && !/fails to validate/.test(l));
    return errors.slice(0, 20).map((l) => fatal("UBL-XSD", l.replace(/^-:\d+: /, "").trim()));
  } catch {
    xmllintMissing = true;
    return [];
  }
}

export interface OfficialResult {
  /** Failed asserts of both schematrons (fatal and warning) and XSD errors (as UBL-XSD, fatal). */
  violations: UblViolation[];
  fatal: UblViolation[];
}

/**
 * The three official validators over many documents: xmllint --schema once per root element, then
 * Saxon HE once per schematron over a directory of all documents (one JVM start each). Returns a
 * result per document, in the order given. Needs xmllint, java and Saxon HE (.ci/run installs them).
 */
export async function runOfficialValidators(documents: string[], referenceDir: string = REFERENCE_DIR, saxonJar: string = SAXON_JAR): Promise<OfficialResult[]> {
  const dir = await mkdtemp(join(tmpdir(), "fiskal-ubl-"));
  try {
    const src = join(dir, "in");
    await mkdir(src);
    const names = documents.map((_, i) => `doc-${String(i).padStart(4, "0")}.xml`);
    await Promise.all(documents.map((d, i) => writeFile(join(src, names[i]!), d)));
    const results: OfficialResult[] = documents.map(() => ({ violations: [], fatal: [] }));
    for (const root of ["Invoice", "CreditNote"]) {
      const idx = documents.map((d, i) => (new RegExp(`<(?:\\w+:)?${root}[\\s>]`).test(d) ? i : -1)).filter((i) => i >= 0);
      if (!idx.length) continue;
      const r = await run("xmllint", ["--noout", "--nonet", "--schema", join(referenceDir, "ubl-xsd", "maindoc", `UBL-${root}-2.1.xsd`), ...idx.map((i) => join(src, names[i]!))]);
      for (const line of r.stderr.split("\n")) {
        const m = /doc-(\d{4})\.xml:\d+: .*error.*/.exec(line);
        if (m) results[Number(m[1])]!.violations.push(fatal("UBL-XSD", line.slice(line.indexOf(":") + 1).trim()));
      }
    }
    for (const [layer, xslt] of [
      ["en", join(referenceDir, "en16931", "EN16931-UBL-validation-1.3.15.xslt")],
      ["hr", join(referenceDir, "hr-cius", "HR-CIUS-EXT-EN16931-UBL-1.0.3.xslt")],
    ] as const) {
      const out = join(dir, layer);
      await mkdir(out);
      const r = await run("java", ["-cp", saxonJar, "net.sf.saxon.Transform", `-s:${src}`, `-xsl:${xslt}`, `-o:${out}`]);
      if (r.code !== 0) throw new Error(`Saxon (${layer}) failed: ${r.stderr.slice(0, 2000)}`);
      const produced = new Set(await readdir(out));
      for (const [i, name] of names.entries()) {
        if (!produced.has(name)) throw new Error(`Saxon (${layer}) wrote no report for document ${i}`);
        results[i]!.violations.push(...parseSvrl(await readFile(join(out, name), "utf8")));
      }
    }
    for (const r of results) r.fatal = r.violations.filter((v) => v.flag === "fatal");
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The failed asserts of an SVRL report. */
export function parseSvrl(svrl: string): UblViolation[] {
  const out: UblViolation[] = [];
  for (const m of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attrs = m[1]!;
    const rule = /\bid="([^"]*)"/.exec(attrs)?.[1] ?? "?";
    const flag = /\bflag="([^"]*)"/.exec(attrs)?.[1] === "fatal" ? "fatal" : "warning";
    const text = (/<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2]!)?.[1] ?? "").replace(/\s+/g, " ").trim();
    out.push({ rule, flag, message: decodeXml(text) });
  }
  return out;
}

function decodeXml(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
}

/** A `validate` for the simulator that runs the three official validators on every document (slow: one JVM per send). */
export function officialValidator(referenceDir: string = REFERENCE_DIR): (ubl: string) => Promise<UblViolation[]> {
  return async (ubl) => (await runOfficialValidators([ubl], referenceDir))[0]!.fatal;
}

/** The default `validate` of the simulator: the structural rules, in-process. */
export function defaultUblValidator(ubl: string): UblViolation[] {
  return quickUblProblems(ubl);
}

/** A `validate` for the simulator: the structural rules, then the UBL 2.1 XSD when xmllint is installed. */
export async function xsdUblValidator(ubl: string): Promise<UblViolation[]> {
  const quick = quickUblProblems(ubl);
  if (quick.length) return quick;
  return xsdProblems(ubl);
}

/** The checks a received document went through, and the violations found (fatal and warnings). */
export interface ReceivedValidation {
  valid: boolean;
  /** "xsd" (UBL 2.1), "en16931" (EN 16931 1.3.15 schematron), "hr-cius" (HR CIUS 1.0.3 schematron), "structure" (quickUblProblems). */
  checked: string[];
  violations: UblViolation[];
}

/** A batch validator for received documents: one result per document, in order. */
export type ReceivedValidator = (documents: string[]) => Promise<ReceivedValidation[]>;

const summarize = (checked: string[], violations: UblViolation[]): ReceivedValidation => ({ valid: !violations.some((v) => v.flag === "fatal"), checked, violations });

/**
 * Received e-invoices are checked with the validators every sent document passes in CI: the UBL 2.1
 * XSD, EN 16931 and HR CIUS, all documents of a batch in one Saxon run per schematron. Where Java
 * or Saxon HE is not installed (an embedded trial), the structural rules and the XSD instead, and
 * `checked` says so.
 */
export function receivedValidator(referenceDir: string = REFERENCE_DIR, saxonJar: string = SAXON_JAR): ReceivedValidator {
  return async (documents) => {
    if (!documents.length) return [];
    if (existsSync(saxonJar)) {
      try {
        const results = await runOfficialValidators(documents, referenceDir, saxonJar);
        return results.map((r) => summarize(["xsd", "en16931", "hr-cius"], r.violations));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
    return Promise.all(documents.map(async (d) => summarize(["structure", "xsd"], [...quickUblProblems(d), ...(await xsdProblems(d, referenceDir))])));
  };
}
