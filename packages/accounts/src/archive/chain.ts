// The archive's hash chain (Fiscalization Act art. 34: origin, integrity and legibility kept until
// the end of the retention period). One home for the formula: sealing, export and verify use it.
import { createHash } from "node:crypto";

export const GENESIS = "0".repeat(64);

export function sha256Hex(content: Uint8Array | string): string {
  return createHash("sha256").update(content).digest("hex");
}

/** A link of an account's chain: the entry's own hash bound to its place and its predecessor. */
export function chainHash(link: { prevHash: string; seq: number; name: string; sha256: string }): string {
  return sha256Hex(`${link.prevHash}\n${link.seq}\n${link.name}\n${link.sha256}`);
}

/**
 * Retention of art. 35(1): six years from the end of the year of issue. The last day an entry must
 * be kept is 31 December of the sixth year after that year; it may be deleted from 1 January after.
 */
export function retainUntil(issueYear: number): string {
  return `${issueYear + 6}-12-31`;
}
