"use client";
// The full key, shown once after creation or rotation.
import { CopyButton } from "~/components/CopyButton";
import { formatDateTime } from "~/lib/format";

export type RevealedKey = { id: string; name: string; key: string; expiresAt: string | null; oldKeyEndsAt?: string; rotated?: boolean };

export function NewKeyPanel({ revealed, onDismiss }: { revealed: RevealedKey; onDismiss: () => void }) {
  return (
    <div className="key-reveal" role="status" data-testid="new-key-panel">
      <strong>{revealed.rotated ? `Novi ključ za „${revealed.name}” je izdan.` : `Ključ „${revealed.name}” je stvoren.`}</strong>
      <div style={{ color: "#0f5132", fontSize: "0.9rem" }}>
        Kopirajte ga sada i spremite na sigurno mjesto — cijeli ključ prikazujemo samo ovaj put.
        {revealed.expiresAt ? ` Ključ istječe ${formatDateTime(revealed.expiresAt)}.` : ""}
        {revealed.oldKeyEndsAt ? ` Stari ključ vrijedi do ${formatDateTime(revealed.oldKeyEndsAt)}.` : ""}
      </div>
      <div className="key-line">
        <code data-testid="new-key-value">{revealed.key}</code>
        <CopyButton text={revealed.key} label="Kopiraj ključ" testId="copy-key" />
        <button type="button" className="btn secondary small" onClick={onDismiss} data-testid="dismiss-key">
          Ključ je spremljen, sakrij ga
        </button>
      </div>
    </div>
  );
}
