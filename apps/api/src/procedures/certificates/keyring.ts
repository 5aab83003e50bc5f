// The key that encrypts certificate private keys at rest: CERT_ENCRYPTION_KEY (and, while keys are
// rotated, CERT_ENCRYPTION_PREVIOUS_KEYS). Without it — a trial on the embedded defaults — a key is
// generated once into the data folder (mode 0600) and the API says so at start.
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createKeyring, generateEncryptionKey, type CertificateKeyring } from "@fiskal/fiscal";
import { certificateKeyEnv } from "../../env.ts";

const KEY_FILE_NAME = "cert-encryption-key";

export interface KeyringSource {
  CERT_ENCRYPTION_KEY?: string;
  CERT_ENCRYPTION_PREVIOUS_KEYS?: string;
  /** Where a generated key is kept when CERT_ENCRYPTION_KEY is not set. */
  dataDir: string;
}

/** The keyring and where its current key came from ("env" or the key file's path). */
export function loadCertificateKeyring(src: KeyringSource): { keyring: CertificateKeyring; source: "env" | string } {
  if (src.CERT_ENCRYPTION_KEY) return { keyring: createKeyring(src.CERT_ENCRYPTION_KEY, src.CERT_ENCRYPTION_PREVIOUS_KEYS), source: "env" };
  const file = path.join(src.dataDir, KEY_FILE_NAME);
  return { keyring: createKeyring(readOrCreateKey(file), src.CERT_ENCRYPTION_PREVIOUS_KEYS), source: file };
}

/** Reads the key file, or creates it atomically (several processes may start at once). */
function readOrCreateKey(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, generateEncryptionKey() + "\n", { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * The keyring of this process from the environment (CERT_ENCRYPTION_KEY, CERT_ENCRYPTION_PREVIOUS_KEYS,
 * FISKAL_DATA_DIR); a key generated into the data folder is announced, like the in-process limiter store.
 */
export function defaultCertificateKeyring(log: { warn(obj: object, msg: string): void }): CertificateKeyring {
  const { keyring, source } = loadCertificateKeyring(certificateKeyEnv());
  if (source !== "env") {
    log.warn(
      { keyFile: source },
      "CERT_ENCRYPTION_KEY is not set: certificate private keys are encrypted with a key generated into the data folder. " +
        "Fine for a single-machine trial; set CERT_ENCRYPTION_KEY (openssl rand -base64 32) on every API and portal process for anything shared.",
    );
  }
  return keyring;
}
