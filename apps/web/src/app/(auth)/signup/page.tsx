import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { currentSessionOrNull } from "~/server/session";
import { SignUpForm } from "./SignUpForm";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Registracija" };

export default async function SignUpPage() {
  if (await currentSessionOrNull()) redirect("/dashboard");
  return (
    <>
      <h1>Otvorite račun</h1>
      <p className="sub">Novi račun dobiva paket Sandbox: testni ključevi i besplatna ograničenja za razvoj.</p>
      <SignUpForm />
      <p className="auth-foot">
        Već imate račun? <Link href="/login">Prijavite se</Link>
      </p>
    </>
  );
}
