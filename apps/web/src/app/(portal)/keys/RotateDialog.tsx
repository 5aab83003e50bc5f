"use client";
// Rotation: a new key now, the old one kept working for the chosen overlap (at most 7 days).
import { forwardRef, useState } from "react";
import { formatDateTime } from "~/lib/format";
import type { KeyRow } from "./KeysTable";

const OVERLAPS: { seconds: number; label: string }[] = [
  { seconds: 0, label: "Bez preklapanja — stari ključ prestaje odmah" },
  { seconds: 3_600, label: "1 sat" },
  { seconds: 86_400, label: "24 sata" },
  { seconds: 3 * 86_400, label: "3 dana" },
  { seconds: 7 * 86_400, label: "7 dana (najviše)" },
];

export const RotateDialog = forwardRef<HTMLDialogElement, { target: KeyRow | null; busy: boolean; onConfirm: (overlapSeconds: number) => void; onClose: () => void }>(
  function RotateDialog({ target, busy, onConfirm, onClose }, ref) {
    const [overlap, setOverlap] = useState(86_400);
    return (
      <dialog ref={ref} aria-labelledby="rotate-title" onClose={onClose} data-testid="rotate-dialog">
        <h2 id="rotate-title">Rotirati ključ?</h2>
        <p>
          Izdat ćemo novi ključ s nazivom <strong>{target?.name}</strong>. Stari ključ (<span className="mono">{target?.prefix}…</span>) radit će još
          onoliko koliko odaberete, da stignete zamijeniti ga u svojim aplikacijama; nakon toga API na njega odgovara 401.
        </p>
        <p data-testid="rotate-expiry">
          {target?.expiresAt ? `Novi ključ istječe kad i stari: ${formatDateTime(target.expiresAt)}.` : "Novi ključ, kao i stari, ne istječe."}
        </p>
        <div className="field">
          <label htmlFor="rotate-overlap">Stari ključ vrijedi još</label>
          <select id="rotate-overlap" value={overlap} onChange={(e) => setOverlap(Number(e.target.value))} data-testid="rotate-overlap">
            {OVERLAPS.map((o) => (
              <option key={o.seconds} value={o.seconds}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="row-actions">
          <button type="button" className="btn secondary" onClick={onClose} autoFocus>
            Odustani
          </button>
          <button type="button" className="btn" onClick={() => onConfirm(overlap)} disabled={busy} data-testid="confirm-rotate">
            {busy ? "Rotiranje…" : "Izdaj novi ključ"}
          </button>
        </div>
      </dialog>
    );
  },
);
