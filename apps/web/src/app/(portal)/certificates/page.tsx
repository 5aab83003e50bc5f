import type { Metadata } from "next";
import { serverApi } from "~/server/api";
import { CertificateManager } from "./CertificateManager";

export const metadata: Metadata = { title: "Certifikat" };

export default async function CertificatesPage() {
  const api = await serverApi();
  const data = await api.certificates.get();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Certifikat za fiskalizaciju</h1>
          <p>
            Računi se potpisuju aplikacijskim certifikatom FINA-e izdanim za OIB vaše tvrtke. Dok ga ne učitate, Fiskal ih potpisuje
            generiranim testnim certifikatom koji prihvaćaju samo simulator i demo okolina Porezne uprave. Privatni ključ čuvamo šifriran
            (AES-256-GCM) i nikad ga ne prikazujemo; lozinku ne pohranjujemo.
          </p>
        </div>
      </div>
      <CertificateManager initial={data.certificate} accountOib={data.accountOib} warningDays={data.warningDays} />
    </>
  );
}
