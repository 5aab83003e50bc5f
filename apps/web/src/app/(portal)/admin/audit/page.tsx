import type { Metadata } from "next";
import { forbidden } from "next/navigation";
import { AuditFilter, AuditTable, AUDIT_GROUPS } from "~/components/AuditTable";
import { first } from "~/lib/usage-view";
import { serverApi } from "~/server/api";

export const metadata: Metadata = { title: "Zapisnik promjena svih računa" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function AdminAuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const api = await serverApi();
  const me = await api.account.me();
  if (me.role !== "OPERATOR") forbidden();
  const sp = await searchParams;
  const action = AUDIT_GROUPS.some((g) => g.value === first(sp.action)) ? first(sp.action)! : "";
  const beforeParam = first(sp.before);
  const before = beforeParam && UUID.test(beforeParam) ? beforeParam : undefined;
  const accountParam = first(sp.account);
  const accountId = accountParam && UUID.test(accountParam) ? accountParam : undefined;
  const page = await api.audit.all({ action: action || undefined, before, accountId });
  const q = (b: string) =>
    `/admin/audit?${new URLSearchParams({ ...(action ? { action } : {}), ...(accountId ? { account: accountId } : {}), before: b }).toString()}`;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Zapisnik promjena svih računa</h1>
          <p>Promjene ključeva, paketa, webhook adresa i certifikata na svim računima: tko, kada (po zagrebačkom vremenu) i s koje IP adrese.</p>
        </div>
      </div>
      <section className="card flush section" aria-labelledby="admin-audit-title">
        <div className="card-head">
          <h2 id="admin-audit-title">Promjene</h2>
          <span className="hint">{accountId ? "jedan račun" : "svi računi"} · najnovije prve</span>
        </div>
        <AuditFilter action={action} path="/admin/audit" keep={accountId ? { account: accountId } : {}} />
        <AuditTable page={page} showAccount nextHref={page.nextBefore ? q(page.nextBefore) : null} />
      </section>
    </>
  );
}
