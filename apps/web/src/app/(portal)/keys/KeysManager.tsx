"use client";
// Create (optional expiry), rotate with an overlap and revoke the account's keys.
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDateTime } from "~/lib/format";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { KeysTable, type KeyRow } from "./KeysTable";
import { NewKeyPanel, type RevealedKey } from "./NewKeyPanel";
import { RevokeDialog } from "./RevokeDialog";
import { RotateDialog } from "./RotateDialog";

const EXPIRY_CHOICES = [
  { days: 0, label: "Ne istječe" },
  { days: 7, label: "Za 7 dana" },
  { days: 30, label: "Za 30 dana" },
  { days: 90, label: "Za 90 dana" },
  { days: 365, label: "Za godinu dana" },
];

export function KeysManager({ initial, sandbox }: { initial: KeyRow[]; sandbox: boolean }) {
  const router = useRouter();
  const [keys, setKeys] = useState(initial);
  const [name, setName] = useState("");
  const [expiryDays, setExpiryDays] = useState(0);
  const [busy, setBusy] = useState<"create" | "rotate" | "revoke" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<RevealedKey | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [target, setTarget] = useState<KeyRow | null>(null);
  const rotateDialog = useRef<HTMLDialogElement>(null);
  const revokeDialog = useRef<HTMLDialogElement>(null);
  // After an action the focus moves to its outcome (the new key, the notice or the error): the
  // button that started it was disabled or is gone, and focus must not fall to <body>.
  const outcome = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<"create" | "rotate" | "revoke" | null>(null);
  useEffect(() => {
    // Runs after the outcome of the finished action is on the page.
    if (busy !== null || !focusAfter.current) return;
    const kind = focusAfter.current;
    focusAfter.current = null;
    if (outcome.current?.childElementCount) outcome.current.focus();
    else if (kind === "create") document.getElementById("key-name")?.focus();
  }, [busy, revealed, notice, error]);

  async function run(kind: "create" | "rotate" | "revoke", action: () => Promise<void>) {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      await action();
      setKeys(await trpc.keys.list.query());
      router.refresh();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      focusAfter.current = kind;
      setBusy(null);
    }
  }

  const onCreate = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void run("create", async () => {
      const expiresAt = expiryDays > 0 ? new Date(Date.now() + expiryDays * 86_400_000).toISOString() : null;
      const r = await trpc.keys.create.mutate({ name, expiresAt });
      if (!r.ok) return setError(r.message);
      setRevealed({ id: r.id, name: r.name, key: r.key, expiresAt: r.expiresAt });
      setName("");
      setExpiryDays(0);
    });
  };

  const onRotate = (overlapSeconds: number) =>
    run("rotate", async () => {
      const k = target;
      rotateDialog.current?.close();
      if (!k) return;
      const r = await trpc.keys.rotate.mutate({ id: k.id, overlapSeconds });
      if (!r.ok) return setError(r.message);
      setRevealed({ id: r.id, name: r.name, key: r.key, expiresAt: r.expiresAt, oldKeyEndsAt: r.oldKeyEndsAt, rotated: true });
      setNotice(overlapSeconds === 0 ? `Stari ključ „${k.name}” je opozvan.` : `Stari ključ „${k.name}” vrijedi do ${formatDateTime(r.oldKeyEndsAt)}.`);
    });

  const onRevoke = () =>
    run("revoke", async () => {
      const k = target;
      revokeDialog.current?.close();
      if (!k) return;
      const { revoked } = await trpc.keys.revoke.mutate({ id: k.id });
      if (revealed?.id === k.id) setRevealed(null);
      setNotice(revoked ? `Ključ „${k.name}” je opozvan. Prestaje raditi u roku od nekoliko sekundi.` : "Ključ je već bio opozvan.");
    });

  const usable = keys.filter((k) => k.state === "active" || k.state === "rotating");

  return (
    <>
      <div ref={outcome} tabIndex={-1} className="focus-target" data-testid="keys-outcome" role="group" aria-label="Ishod zadnje radnje">
        {revealed ? (
          <NewKeyPanel
            revealed={revealed}
            onDismiss={() => {
              setRevealed(null);
              document.getElementById("key-name")?.focus();
            }}
          />
        ) : null}
        {notice ? <Alert kind="ok" testId="keys-notice">{notice}</Alert> : null}
        {error ? <Alert kind="error" testId="keys-error">{error}</Alert> : null}
      </div>

      <section className="card section" aria-labelledby="new-key-title">
        <div className="card-head">
          <h2 id="new-key-title">Novi ključ</h2>
          <span className="hint">{sandbox ? "Sandbox ključevi počinju s fsk_test_" : "Produkcijski ključevi počinju s fsk_live_"}</span>
        </div>
        <form className="inline-form" onSubmit={onCreate}>
          <div className="field">
            <label htmlFor="key-name">Naziv ključa</label>
            <input id="key-name" name="name" required maxLength={64} placeholder="npr. Blagajna 1 ili ERP produkcija" value={name} onChange={(e) => setName(e.target.value)} data-testid="key-name" />
          </div>
          <div className="field" style={{ flex: "0 1 200px" }}>
            <label htmlFor="key-expiry">Istek</label>
            <select id="key-expiry" value={expiryDays} onChange={(e) => setExpiryDays(Number(e.target.value))} data-testid="key-expiry">
              {EXPIRY_CHOICES.map((c) => (
                <option key={c.days} value={c.days}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn" disabled={busy !== null || !name.trim()} data-testid="create-key">
            {busy === "create" ? "Stvaranje…" : "Stvori ključ"}
          </button>
        </form>
      </section>

      <section className="card flush section" aria-labelledby="keys-title">
        <div className="card-head">
          <h2 id="keys-title">Ključevi računa</h2>
          <span className="hint" data-testid="active-key-count">
            aktivnih: {usable.length}
          </span>
        </div>
        {keys.length === 0 ? (
          <div className="empty" data-testid="keys-empty">
            <strong>Još nemate nijedan ključ</strong>
            Stvorite prvi ključ iznad i pošaljite njime svoj prvi zahtjev.
          </div>
        ) : (
          <KeysTable
            keys={keys}
            onRotate={(k) => {
              setTarget(k);
              rotateDialog.current?.showModal();
            }}
            onRevoke={(k) => {
              setTarget(k);
              revokeDialog.current?.showModal();
            }}
          />
        )}
      </section>

      <RotateDialog ref={rotateDialog} target={target} busy={busy === "rotate"} onConfirm={(s) => void onRotate(s)} onClose={() => rotateDialog.current?.close()} />
      <RevokeDialog ref={revokeDialog} target={target} busy={busy === "revoke"} onConfirm={() => void onRevoke()} onClose={() => revokeDialog.current?.close()} />
    </>
  );
}
