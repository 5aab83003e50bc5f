// The operator's rule "every account owner signs in with two factors" (PortalSettings), and whether
// it applies to a user: an owner (OWNER in the team of the account they work in) without TOTP.
import type { Db } from "@fiskal/db";

async function requireTotpForOwners(db: Db): Promise<boolean> {
  const row = await db.portalSettings.findUnique({ where: { id: 1 }, select: { requireTotpForOwners: true } });
  return row?.requireTotpForOwners ?? false;
}

/** Whether the rule covers `user` (whatever their TOTP state). */
export async function totpRequiredFor(db: Db, user: { id: string; accountId: string; role: string }): Promise<boolean> {
  if (user.role !== "CUSTOMER" || !(await requireTotpForOwners(db))) return false;
  const membership = await db.membership.findUnique({ where: { userId_accountId: { userId: user.id, accountId: user.accountId } }, select: { role: true } });
  return membership?.role === "OWNER";
}

/** Whether `user` must enable TOTP before using the portal: covered by the rule and not enabled. */
export async function mustEnableTotp(db: Db, user: { id: string; accountId: string; role: string }): Promise<boolean> {
  if (!(await totpRequiredFor(db, user))) return false;
  const row = await db.user.findUnique({ where: { id: user.id }, select: { totpEnabledAt: true } });
  return !row?.totpEnabledAt;
}
