import type { PortalOutputs } from "~/lib/portal-types";

export type MemberRole = PortalOutputs["team"]["overview"]["members"][number]["role"];

export const ROLE_LABELS: Record<MemberRole, string> = { OWNER: "vlasnik", DEVELOPER: "programer", ACCOUNTANT: "računovođa" };
export const ROLE_ORDER: MemberRole[] = ["OWNER", "DEVELOPER", "ACCOUNTANT"];
