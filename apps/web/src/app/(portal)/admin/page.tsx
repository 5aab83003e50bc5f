import { ENDPOINT_LIMITS } from "@fiskal/limits";
import type { Metadata } from "next";
import { Alert } from "~/components/Alert";
import { serverApi } from "~/server/api";
import { AccountsTable } from "./AccountsTable";
import { RequestsPanel } from "./RequestsPanel";

export const metadata: Metadata = { title: "Administracija" };

export default async function AdminPage({ searchParams }: { searchParams: Promise<{ q?: string }> }) {
  const api = await serverApi();
  const me = await api.account.me();
  if (me.role !== "OPERATOR") {
    return (
      <div className="card" style={{ maxWidth: 620 }}>
        <Alert kind="error" title="Nemate pristup" testId="admin-forbidden">
          Administracija je dostupna samo operaterima Fiskala.
        </Alert>
      </div>
    );
  }
  const { q } = await searchParams;
  const search = q?.slice(0, 120);
  const [requests, accounts] = await Promise.all([api.admin.requests(), api.admin.accounts({ search })]);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Administracija</h1>
          <p>Zahtjevi za promjenu paketa i prilagođena Enterprise ograničenja. Promjene vrijede od sljedećeg zahtjeva računa.</p>
        </div>
      </div>
      <RequestsPanel pending={requests.pending} decided={requests.decided} endpoints={ENDPOINT_LIMITS} />
      <AccountsTable accounts={accounts} search={search ?? ""} endpoints={ENDPOINT_LIMITS} />
    </>
  );
}
