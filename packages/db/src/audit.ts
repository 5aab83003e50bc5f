import type { Db } from "./client.ts";
import type { Prisma } from "./generated/prisma/client.ts";

/** One entry of the audit log: who did what on an account, when and from which address. */
export interface AuditEntry {
  accountId: string;
  /** The portal user who acted; null or absent for the API or the CLI. */
  actorUserId?: string | null;
  /** E-mail of the user, or "api" / "cli". */
  actor: string;
  /** Dotted action name, e.g. "key.created", "plan.approved", "webhook.deleted". */
  action: string;
  /** What was acted on, e.g. a key prefix or a webhook URL. */
  target?: string;
  /** Client address of the request; null when not known. */
  ip?: string | null;
  /** Extra facts for the entry (never secrets: no keys, passwords or signing secrets). */
  detail?: Record<string, unknown>;
}

const ACTION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * Appends an entry to the audit log. Pass a transaction client to record the entry atomically with
 * the change it describes.
 */
export async function recordAudit(db: Db | Prisma.TransactionClient, entry: AuditEntry): Promise<void> {
  if (!ACTION.test(entry.action)) throw new Error(`audit action must be dotted lowercase, got ${JSON.stringify(entry.action)}`);
  if (!entry.actor) throw new Error("audit entry needs an actor");
  await db.auditLog.create({
    data: {
      accountId: entry.accountId,
      actorUserId: entry.actorUserId ?? null,
      actor: entry.actor.slice(0, 320),
      action: entry.action,
      target: entry.target?.slice(0, 2048) ?? null,
      ip: entry.ip?.slice(0, 64) ?? null,
      ...(entry.detail ? { detail: entry.detail as Prisma.InputJsonObject } : {}),
    },
  });
}
