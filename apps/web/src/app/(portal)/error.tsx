"use client";
// A portal page that failed to render. An expired session never gets here (the proxy and the layout
// send it to sign-in); this is a real failure, reported with the error's digest so it can be found in
// the server log.
import { useEffect } from "react";
import { Alert } from "~/components/Alert";

export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => {
    console.error(JSON.stringify({ level: "error", msg: "portal page failed", digest: error.digest ?? null }), error);
  }, [error]);
  return (
    <div className="card" style={{ maxWidth: 620 }}>
      <h1>Stranicu nije moguće učitati</h1>
      <Alert kind="error">
        Došlo je do pogreške na poslužitelju. Pokušajte ponovno za nekoliko trenutaka.
        {error.digest ? ` Ako se ponavlja, javite nam oznaku ${error.digest}.` : ""}
      </Alert>
      <button type="button" className="btn" onClick={reset}>
        Pokušaj ponovno
      </button>
    </div>
  );
}
