import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentSessionOrNull } from "~/server/session";
import { landingPath, safeCallbackPath } from "~/lib/auth-messages";
import { LoginForm } from "./LoginForm";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Prijava" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; registered?: string }> }) {
  const params = await searchParams;
  // Without a page to return to, the landing page by role decides (operators: /admin).
  const callbackUrl = params.callbackUrl ? safeCallbackPath(params.callbackUrl) : "";
  const session = await currentSessionOrNull();
  if (session) redirect(callbackUrl || landingPath(session.user.role));
  return (
    <>
      <h1>Prijava</h1>
      <p className="sub">Prijavite se za pregled potrošnje, API ključeva i paketa.</p>
      <LoginForm callbackUrl={callbackUrl} />
      <p className="auth-foot">
        Nemate račun? <Link href="/signup">Registrirajte se</Link>
      </p>
    </>
  );
}
