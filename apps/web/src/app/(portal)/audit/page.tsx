import type { Metadata } from "next";
import { AuditFilter, AuditTable, AUDIT_GROUPS } from "~/components/AuditTable";
import { first } from "~/lib/usage-view";
import { serverApi } from "~/server/api";

export const metadata: Metadata = { title: "Zapisnik promjena" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const sp = await searchParams;
  const action = AUDIT_GROUPS.some((g) => g.value === first(sp.action)) ? first(sp.action)! : "";
  const beforeParam = first(sp.before);
  const before = beforeParam && UUID.test(beforeParam) ? beforeParam : undefined;
  const api = await serverApi();
  const page = await api.audit.list({ action: action || undefined, before });
  const q = (b: string) => `/audit?${new URLSearchParams({ ...(action ? { action } : {}), before: b }).toString()}`;
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Zapisnik promjena</h1>
          <p>
            Promjene na vašem računu: API ključevi, paket, webhook adrese i certifikat — tko ih je napravio, kada (po zagrebačkom vremenu) i s
            koje IP adrese. Zapisi se ne mogu mijenjati ni brisati.
          </p>
        </div>
      </div>
      <section className="card flush section" aria-labelledby="audit-title">
        <div className="card-head">
          <h2 id="audit-title">Promjene</h2>
          <span className="hint">najnovije prve</span>
        </div>
        <AuditFilter action={action} path="/audit" />
        <AuditTable page={page} showAccount={false} nextHref={page.nextBefore ? q(page.nextBefore) : null} />
      </section>
    </>
  );
}
