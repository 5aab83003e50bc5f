// Audit entries from the portal: the signed-in user as actor, the client address as the sign-in
// limits read it (X-Forwarded-For counted from the right by the trusted proxy hops).
import { recordAudit, type Db, type Prisma } from "@fiskal/db";
import { env } from "~/env";
import { clientIp } from "~/lib/client-ip";

export interface AuditContext {
  db: Db;
  headers: Headers;
  user: { id: string; email: string };
  accountId: string;
}

/** Records `action` on `accountId` (default: the caller's own account) as done by the signed-in user. */
export function audit(
  ctx: AuditContext,
  entry: { action: string; target?: string; detail?: Record<string, unknown>; accountId?: string },
  tx?: Prisma.TransactionClient,
): Promise<void> {
  const ip = clientIp(ctx.headers, env().trustProxyHops);
  return recordAudit(tx ?? ctx.db, {
    accountId: entry.accountId ?? ctx.accountId,
    actorUserId: ctx.user.id,
    actor: ctx.user.email,
    action: entry.action,
    target: entry.target,
    ip: ip === "unknown" ? null : ip,
    detail: entry.detail,
  });
}
