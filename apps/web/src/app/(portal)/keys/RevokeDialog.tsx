"use client";
// Confirmation before a key is revoked for good.
import { forwardRef } from "react";
import type { KeyRow } from "./KeysTable";
import { DialogActions } from "~/components/DialogActions";

export const RevokeDialog = forwardRef<HTMLDialogElement, { target: KeyRow | null; busy: boolean; onConfirm: () => void; onClose: () => void }>(
  function RevokeDialog({ target, busy, onConfirm, onClose }, ref) {
    return (
      <dialog ref={ref} aria-labelledby="revoke-title" onClose={onClose} data-testid="revoke-dialog">
        <h2 id="revoke-title">Opozvati ključ?</h2>
        <p>
          Ključ <strong>{target?.name}</strong> (<span className="mono">{target?.prefix}…</span>) prestat će raditi u roku od nekoliko sekundi.
          Aplikacije koje ga koriste dobit će odgovor 401. Ovo se ne može poništiti.
        </p>
        <DialogActions onCancel={onClose} onConfirm={onConfirm} disabled={busy} testId="confirm-revoke" confirm={busy ? "Opozivanje…" : "Opozovi ključ"} />
      </dialog>
    );
  },
);
