"use client";
// Confirmation before deleting an address or replacing its secret. Only the URL may break anywhere;
// the sentence around it wraps between words.
import type { RefObject } from "react";
import type { Endpoint } from "./types";

export type Confirm = { kind: "remove" | "rotate"; endpoint: Endpoint };

export function ConfirmDialog({ dialog, confirm, busy, onConfirm }: { dialog: RefObject<HTMLDialogElement | null>; confirm: Confirm | null; busy: string | null; onConfirm: () => void }) {
  return (
    <dialog ref={dialog} aria-labelledby="wh-confirm-title" aria-describedby="wh-confirm-text" data-testid="webhook-confirm">
      <h2 id="wh-confirm-title">{confirm?.kind === "remove" ? "Obrisati adresu?" : "Zamijeniti tajnu?"}</h2>
      <p id="wh-confirm-text">
        {confirm?.kind === "remove" ? (
          <>
            Adresa <span className="mono break-anywhere">{confirm.endpoint.url}</span> više neće primati događaje, a njezin zapisnik isporuka bit će
            obrisan.
          </>
        ) : (
          "Stara tajna odmah prestaje vrijediti. Primatelj mora prijeći na novu tajnu prije sljedećeg događaja."
        )}
      </p>
      <div className="row-actions">
        <button type="button" className="btn secondary" onClick={() => dialog.current?.close()} autoFocus>
          Odustani
        </button>
        <button type="button" className="btn danger" onClick={onConfirm} disabled={busy !== null}>
          {confirm?.kind === "remove" ? "Obriši" : "Zamijeni tajnu"}
        </button>
      </div>
    </dialog>
  );
}
