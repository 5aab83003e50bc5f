// Which portal pages a team role may open (the same rule as the procedures' role checks in
// server/trpc/trpc.ts; docs/portal.md, "Uloge"). Pages not listed are open to every member.
type MemberRole = "OWNER" | "DEVELOPER" | "ACCOUNTANT";

const AREAS: [string, MemberRole[]][] = [
  ["/keys", ["OWNER", "DEVELOPER"]],
  ["/webhooks", ["OWNER", "DEVELOPER"]],
  ["/certificates", ["OWNER", "DEVELOPER"]],
  ["/audit", ["OWNER", "ACCOUNTANT"]],
];

/** Whether `role` may open `path` (path and query as requested); a removed member (null) only the open pages. */
export function pageAllowed(role: MemberRole | null, path: string): boolean {
  const pathname = path.split(/[?#]/)[0] ?? "";
  const area = AREAS.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  return !area || (role !== null && area[1].includes(role));
}
