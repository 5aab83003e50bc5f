"use client";
import { Alert } from "~/components/Alert";

export default function PortalError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="card" style={{ maxWidth: 620 }}>
      <Alert kind="error" title="Stranicu nije moguće učitati">
        Poslužitelj trenutačno ne može dohvatiti podatke (baza podataka možda nije dostupna). Pokušajte ponovno za nekoliko trenutaka.
      </Alert>
      <button type="button" className="btn" onClick={reset}>
        Pokušaj ponovno
      </button>
    </div>
  );
}
