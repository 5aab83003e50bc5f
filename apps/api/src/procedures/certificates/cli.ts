// `pnpm fiskal certificate …`: upload an account's FINA certificate, show it, and re-encrypt every
// stored private key under the current CERT_ENCRYPTION_KEY (the last step of a key rotation).
import { readFileSync } from "node:fs";
import path from "node:path";
import { recordAudit, type Db } from "@fiskal/db";
import { CertificateError } from "@fiskal/fiscal";
import { loadEnv } from "../../env.ts";
import { loadCertificateKeyring } from "./keyring.ts";
import { certificateView, reencryptCertificateKeys, storeUploadedCertificate } from "./store.ts";

export const CERTIFICATE_USAGE = `  pnpm fiskal certificate upload --account ID --file CERT.p12 [--password-file FILE]
                             (the password comes from --password-file or FISKAL_CERT_PASSWORD)
  pnpm fiskal certificate show --account ID
  pnpm fiskal certificate reencrypt        re-encrypt every private key under CERT_ENCRYPTION_KEY`;

export interface CertificateCommandContext {
  db: Db;
  values: Record<string, string | boolean | string[] | undefined>;
  print: (human: string, data: unknown) => void;
  /** The account id option, checked. */
  account: () => string;
  /** A usage error (exit code 2). */
  fail: (message: string) => Error;
}

function keyring() {
  const env = loadEnv();
  return loadCertificateKeyring({
    CERT_ENCRYPTION_KEY: env.CERT_ENCRYPTION_KEY,
    CERT_ENCRYPTION_PREVIOUS_KEYS: env.CERT_ENCRYPTION_PREVIOUS_KEYS,
    dataDir: env.FISKAL_DATA_DIR,
  }).keyring;
}

export async function certificateCommand(verb: string | undefined, c: CertificateCommandContext): Promise<number> {
  switch (verb) {
    case "upload": {
      const accountId = c.account();
      const file = c.values.file;
      if (typeof file !== "string" || file === "") throw c.fail("--file is required (the .p12/.pfx file)");
      const passwordFile = c.values["password-file"];
      const password =
        typeof passwordFile === "string" ? readFileSync(passwordFile, "utf8").replace(/\r?\n$/, "") : loadEnv().FISKAL_CERT_PASSWORD;
      if (password === undefined) throw c.fail("give the certificate's password in --password-file or FISKAL_CERT_PASSWORD (never on the command line)");
      if (!(await c.db.account.findUnique({ where: { id: accountId }, select: { id: true } }))) throw c.fail("no such account");
      let pkcs12: Buffer;
      try {
        pkcs12 = readFileSync(path.resolve(file));
      } catch (err) {
        throw c.fail(`cannot read ${file}: ${(err as Error).message}`);
      }
      let row;
      try {
        row = await storeUploadedCertificate(c.db, keyring(), { accountId, pkcs12, password });
      } catch (err) {
        if (err instanceof CertificateError) throw c.fail(`${err.message} (${err.reason})`);
        throw err;
      }
      await recordAudit(c.db, {
        accountId,
        actor: "cli",
        action: "certificate.uploaded",
        target: row.fingerprint ?? row.subject,
        detail: { subject: row.subject, oib: row.oib, not_after: row.notAfter.toISOString() },
      });
      const v = certificateView(row);
      c.print(`Certificate stored for account ${accountId}: ${v.subject}, OIB ${v.oib}, valid until ${v.not_after} (${v.days_left} days)`, v);
      return 0;
    }
    case "show": {
      const accountId = c.account();
      const row = await c.db.certificate.findUnique({ where: { accountId } });
      if (!row) throw c.fail("that account has no certificate yet");
      const v = certificateView(row);
      c.print(
        `${v.subject}\n  OIB ${v.oib}, ${v.test ? "generated test certificate" : "uploaded"}, valid ${v.not_before ?? "?"} – ${v.not_after} (${v.state}, ${v.days_left} days left)`,
        v,
      );
      return 0;
    }
    case "reencrypt": {
      const ring = keyring();
      const { reencrypted, failed } = await reencryptCertificateKeys(c.db, ring);
      c.print(
        `${reencrypted} private key(s) re-encrypted under key ${ring.currentId}.` +
          (failed.length ? `\n${failed.length} failed (is their old key in CERT_ENCRYPTION_PREVIOUS_KEYS?):\n${failed.map((f) => `  ${f.accountId}: ${f.error}`).join("\n")}` : ""),
        { keyId: ring.currentId, reencrypted, failed },
      );
      return failed.length ? 1 : 0;
    }
    default:
      throw c.fail(`unknown command "certificate ${verb ?? ""}"\n\n${CERTIFICATE_USAGE}`);
  }
}
