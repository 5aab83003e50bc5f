import { ENDPOINT_LIMITS, MAX_DAY_LIMIT, MAX_ROLLING_LIMIT } from "@fiskal/limits";
import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { serverApi } from "~/server/api";
import { AccountsTable } from "./AccountsTable";
import { RequestsPanel } from "./RequestsPanel";
import { TotpPolicy } from "./TotpPolicy";

export const metadata: Metadata = { title: "Administracija" };

const BOUNDS = { rolling: MAX_ROLLING_LIMIT, day: MAX_DAY_LIMIT };

export default async function AdminPage({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  const api = await serverApi();
  const me = await api.account.me();
  // 403 with ./forbidden.tsx. This runs before the response starts (no loading boundary above
  // this page), so the status is a real 403, not a 200 with an error message in it.
  if (me.role !== "OPERATOR") forbidden();
  const { q } = await searchParams;
  const search = q?.slice(0, 120);
  const [requests, accounts, totpPolicy] = await Promise.all([api.admin.requests(), api.admin.accounts({ search }), api.security.totpPolicy()]);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Administracija</h1>
          <p>Zahtjevi za promjenu paketa i prilagođena Enterprise ograničenja. Promjene vrijede od sljedećeg zahtjeva računa.</p>
        </div>
      </div>
      <RequestsPanel pending={requests.pending} decided={requests.decided} endpoints={ENDPOINT_LIMITS} bounds={BOUNDS} />
      <AccountsTable accounts={accounts} search={search ?? ""} endpoints={ENDPOINT_LIMITS} bounds={BOUNDS} />
      <TotpPolicy initial={totpPolicy.requireTotpForOwners} />
    </>
  );
}
