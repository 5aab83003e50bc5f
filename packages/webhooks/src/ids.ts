import { randomBytes } from "node:crypto";

/** RFC 9562 UUIDv7, the same kind Prisma's `uuid(7)` default generates, so ids sort by creation. */
export function uuidv7(now = Date.now()): string {
  const b = randomBytes(16);
  b.writeUIntBE(now, 0, 6);
  b[6] = (b[6]! & 0x0f) | 0x70;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Standard Webhooks message id (`webhook-id`): stable across every attempt of the same event. */
export function messageId(now = Date.now()): string {
  return `msg_${uuidv7(now).replaceAll("-", "")}`;
}

/** "whsec_" + base64 of 32 random bytes; the Standard Webhooks libraries accept this form directly. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}
