import type { Metadata } from "next";
import { serverApi } from "~/server/api";
import { KeysManager } from "./KeysManager";

export const metadata: Metadata = { title: "API ključevi" };

export default async function KeysPage() {
  const api = await serverApi();
  const [keys, me] = await Promise.all([api.keys.list(), api.account.me()]);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>API ključevi</h1>
          <p>
            Svi ključevi računa dijele istu kvotu. Pošaljite ključ u zaglavlju <code>Authorization: Bearer &lt;ključ&gt;</code>. Ključ može imati
            rok trajanja; rotacijom dobivate novi ključ, a stari radi još odabrano vrijeme (najviše 7 dana). Istekao ili opozvan ključ API
            odbija kao nepoznat (401). Broj zahtjeva po ključu odnosi se na zadnjih 30 dana.
          </p>
        </div>
      </div>
      <KeysManager initial={keys} sandbox={me.plan === "SANDBOX"} />
    </>
  );
}
