import type { Metadata } from "next";
import { serverApi } from "~/server/api";
import { PasswordForm } from "./PasswordForm";
import { TotpSection } from "./TotpSection";

export const metadata: Metadata = { title: "Lozinka i prijava" };

export default async function SecurityPage() {
  const api = await serverApi();
  const totp = await api.security.totpStatus();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Lozinka i prijava</h1>
          <p>Nova lozinka odjavljuje sve ostale preglednike i uređaje; ovaj ostaje prijavljen. Dvofaktorska prijava uz lozinku traži i kôd s vašeg telefona.</p>
        </div>
      </div>
      <TotpSection initial={totp} mandatory={totp.required} />
      <PasswordForm />
    </>
  );
}
