// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP) with node:crypto: HMAC-SHA1, 6
// digits, 30-second steps, the secret in base32 (RFC 4648) as authenticator apps read it, and
// one-time recovery codes kept as SHA-256 hashes.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const TOTP_STEP_SECONDS = 30;
const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted (clock drift): ±30 s. */
const DRIFT_STEPS = 1;
const RECOVERY_CODE_COUNT = 10;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = ALPHABET.indexOf(ch);
    if (idx === -1) throw new Error("invalid base32");
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226 HOTP of `counter` with `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, "0");
}

export function totpStep(at: number = Date.now()): number {
  return Math.floor(at / 1000 / TOTP_STEP_SECONDS);
}

/** The code of `secret` (base32) at `at` (Unix ms). */
export function totpCode(secret: string, at: number = Date.now()): string {
  return hotp(base32Decode(secret), totpStep(at));
}

/**
 * The time step `code` belongs to (now ± 1 step), or null. A step at or before `lastUsedStep` is
 * refused, so a code seen once (over a shoulder, in a log) cannot be used again.
 */
export function verifyTotp(secret: string, code: string, lastUsedStep: number | null, at: number = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const now = totpStep(at);
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** otpauth:// URI that authenticator apps import (as a QR code or a link). */
export function otpauthUri(secret: string, account: string, issuer = "Fiskal"): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=${TOTP_DIGITS}&period=${TOTP_STEP_SECONDS}`;
}

/** Ten recovery codes, "xxxx-xxxx-xxxx" of base32 letters and digits (60 bits each). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = base32Encode(randomBytes(8)).slice(0, 12).toLowerCase();
    return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
  });
}

/** Recovery codes are random and long: SHA-256 is enough (no password hashing needed). */
export function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(code.trim().toLowerCase().replace(/[\s-]/g, "")).digest("hex");
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[a-z2-7]{4}[\s-]?[a-z2-7]{4}[\s-]?[a-z2-7]{4}$/i.test(code.trim());
}
