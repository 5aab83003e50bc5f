import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "~/components/Alert";
import { formatDateTime } from "~/lib/format";
import { serverApi } from "~/server/api";
import { AcceptForm } from "./AcceptForm";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Poziv u tim" };

const ROLE_LABELS = { OWNER: "vlasnik", DEVELOPER: "programer", ACCOUNTANT: "računovođa" } as const;

const CLOSED = {
  accepted: "Ovaj poziv je već prihvaćen. Prijavite se svojim računom.",
  revoked: "Ovaj poziv je povučen. Zatražite novi od vlasnika računa.",
  expired: "Ovaj poziv je istekao. Zatražite novi od vlasnika računa.",
} as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const api = await serverApi();
  const inv = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await api.team.invitation({ token }) : { found: false as const };
  if (!inv.found || inv.state !== "open") {
    return (
      <>
        <h1>Poziv u tim</h1>
        <Alert kind="error" testId="invite-closed">
          {inv.found && inv.state !== "open" ? CLOSED[inv.state] : "Poziv nije pronađen. Provjerite poveznicu iz e-poruke."}
        </Alert>
        <p className="auth-foot">
          <Link href="/login">Prijava</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Poziv u tim {inv.accountName}</h1>
      <p className="sub" data-testid="invite-summary">
        Pozvani ste kao <strong>{ROLE_LABELS[inv.role]}</strong> na adresu <strong>{inv.email}</strong>. Poziv vrijedi do {formatDateTime(inv.expiresAt)}.
      </p>
      <AcceptForm token={token} email={inv.email} existing={inv.userExists} />
    </>
  );
}
