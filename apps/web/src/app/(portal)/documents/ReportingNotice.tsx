// The eIzvještavanje deadline notice (a reporting.due event whose deadline is ahead), on the
// dashboard and the Dokumenti page.
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { serverApi } from "~/server/api";

export async function ReportingNotice({ link = true }: { link?: boolean }) {
  const notice = await (await serverApi()).documents.reportingNotice();
  if (!notice) return null;
  const count = notice.unreported_einvoices === 1 ? "jedan isporučeni e-račun još nema" : `${notice.unreported_einvoices} isporučenih e-računa još nema`;
  return (
    <Alert kind="warn" title={`Rok eIzvještavanja: ${notice.deadline}.`} testId="reporting-notice">
      Za razdoblje {notice.period} {count} prijavljenu naplatu ni odbijanje.
      {link ? (
        <>
          {" "}
          <Link href="/documents">Dokumenti</Link>
        </>
      ) : null}
    </Alert>
  );
}
