"use client";
// Owners: invite by e-mail, change roles, remove members, withdraw open invitations. After every
// action the focus goes to its outcome message, or back to where the action started.
import { useEffect, useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { formatDateTime } from "~/lib/format";
import type { PortalOutputs } from "~/lib/portal-types";
import { trpc } from "~/lib/trpc-client";
import { useAction } from "~/lib/use-action";
import { ROLE_LABELS, ROLE_ORDER, type MemberRole } from "./roles";
import { DataTable } from "~/components/DataTable";
import { DialogActions } from "~/components/DialogActions";
import { CardSection } from "~/components/CardSection";

type Team = PortalOutputs["team"]["overview"];
type Member = Team["members"][number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function TeamManager({ members, invitations }: { members: Team["members"]; invitations: Team["invitations"] }) {
  const { busy, message, setMessage, run } = useAction();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<MemberRole>("DEVELOPER");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [roles, setRoles] = useState<Record<string, MemberRole>>({});
  const [target, setTarget] = useState<Member | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const outcome = useRef<HTMLDivElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const emailInput = useRef<HTMLInputElement>(null);

  // The outcome of an action takes the focus once it is shown (the button that started it may be gone).
  useEffect(() => {
    if (busy === null && message && outcome.current) outcome.current.focus();
  }, [busy, message]);

  const onInvite = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const value = email.trim();
    if (!value) return (setEmailError("Unesite e-mail adresu osobe koju pozivate."), emailInput.current?.focus());
    if (!EMAIL.test(value)) return (setEmailError("Unesite ispravnu e-mail adresu, npr. ana@tvrtka.hr."), emailInput.current?.focus());
    setEmailError(null);
    void run(
      "invite",
      async () => {
        const r = await trpc.team.invite.mutate({ email: value, role });
        if (r.ok) setEmail("");
        return r.ok ? { ok: true, message: r.sent ? `Poziv je poslan na ${value}.` : `Poziv je spremljen, ali e-poruku nije bilo moguće poslati na ${value}. Pokušajte ponovno.` } : r;
      },
      "Poziv je poslan.",
    );
  };

  const openRemove = (m: Member, button: HTMLElement) => {
    returnTo.current = button;
    setTarget(m);
    setMessage(null);
    dialog.current?.showModal();
  };
  const closeDialog = () => {
    if (dialog.current?.open) dialog.current.close();
    returnTo.current?.focus();
  };
  const confirmRemove = () => {
    const m = target;
    dialog.current?.close();
    if (!m) return;
    void run("remove", () => trpc.team.remove.mutate({ memberId: m.id }), `${m.email} više nije član tima.`);
  };

  return (
    <>
      <div ref={outcome} tabIndex={-1} data-testid="team-outcome" style={{ outline: "none" }}>
        {message ? (
          <Alert kind={message.kind === "ok" ? "ok" : "error"} testId={message.kind === "ok" ? "team-ok" : "team-error"}>
            {message.text}
          </Alert>
        ) : null}
      </div>

      <section className="card section" aria-labelledby="invite-title">
        <h2 id="invite-title">Pozovite člana</h2>
        <p style={{ color: "var(--muted)", marginTop: 0 }}>Poziv stiže e-poštom i vrijedi 7 dana. Nova osoba postavlja lozinku, postojeći korisnik potvrđuje svojom.</p>
        <form className="inline-form" onSubmit={onInvite} noValidate data-testid="invite-form">
          <div className="field">
            <label htmlFor="invite-email">E-mail adresa</label>
            <input
              ref={emailInput}
              id="invite-email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? "invite-email-error" : undefined}
              maxLength={254}
            />
            {emailError ? (
              <span className="field-error" id="invite-email-error" data-testid="invite-email-error">
                {emailError}
              </span>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="invite-role">Uloga</label>
            <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as MemberRole)}>
              {ROLE_ORDER.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
          <button className="btn" type="submit" disabled={busy !== null} data-testid="invite-submit" style={{ alignSelf: "flex-end" }}>
            {busy === "invite" ? "Slanje…" : "Pošalji poziv"}
          </button>
        </form>
      </section>

      <CardSection id="members-title" title="Članovi" hint={`${members.length} u timu`}>
        <DataTable columns={["Član", "Uloga", "Član od", { label: "Radnje", num: true }]} testId="members-table">
          {members.map((m) => {
            const chosen = roles[m.id] ?? m.role;
            return (
              <tr key={m.id} data-testid="member-row" data-email={m.email} data-role={m.role}>
                <td data-label="Član" className="break-anywhere">
                  {m.name ? `${m.name} · ` : ""}
                  {m.email}
                  {m.you ? <span className="badge" style={{ marginLeft: 6 }}>vi</span> : null}
                </td>
                <td data-label="Uloga">
                  <div className="row-actions">
                    <select
                      className="input"
                      aria-label={`Uloga člana ${m.email}`}
                      value={chosen}
                      onChange={(e) => setRoles({ ...roles, [m.id]: e.target.value as MemberRole })}
                      data-testid="member-role"
                    >
                      {ROLE_ORDER.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                    {chosen !== m.role ? (
                      <button
                        type="button"
                        className="btn small secondary"
                        disabled={busy !== null}
                        data-testid="member-role-save"
                        onClick={() =>
                          void run("role", () => trpc.team.changeRole.mutate({ memberId: m.id, role: chosen }), `Uloga člana ${m.email} je sada: ${ROLE_LABELS[chosen]}.`).then(
                            () => setRoles(({ [m.id]: _drop, ...rest }) => rest),
                          )
                        }
                      >
                        Spremi ulogu
                      </button>
                    ) : null}
                  </div>
                </td>
                <td data-label="Član od">{formatDateTime(m.since)}</td>
                <td data-label="Radnje" className="num">
                  <button type="button" className="btn small ghost-danger" disabled={busy !== null} onClick={(e) => openRemove(m, e.currentTarget)} data-testid="member-remove">
                    {m.you ? "Napusti tim" : "Ukloni"}
                    <span className="sr-only"> {m.email}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </DataTable>
      </CardSection>

      <CardSection id="invitations-title" title="Otvoreni pozivi" hint="neprihvaćeni, još vrijede">
        {invitations.length === 0 ? (
          <p style={{ padding: "0 20px 18px", color: "var(--muted)" }} data-testid="no-invitations">
            Nema otvorenih poziva.
          </p>
        ) : (
          <DataTable columns={["E-mail", "Uloga", "Vrijedi do", { label: "Radnje", num: true }]} testId="invitations-table">
            {invitations.map((i) => (
              <tr key={i.id} data-testid="invitation-row" data-email={i.email}>
                <td data-label="E-mail" className="break-anywhere">{i.email}</td>
                <td data-label="Uloga">{ROLE_LABELS[i.role]}</td>
                <td data-label="Vrijedi do">{formatDateTime(i.expiresAt)}</td>
                <td data-label="Radnje" className="num">
                  <button
                    type="button"
                    className="btn small secondary"
                    disabled={busy !== null}
                    onClick={() => void run("revoke", () => trpc.team.revokeInvitation.mutate({ id: i.id }), `Poziv za ${i.email} je povučen.`)}
                    data-testid="invitation-revoke"
                  >
                    Povuci poziv<span className="sr-only"> za {i.email}</span>
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </CardSection>

      <dialog ref={dialog} aria-labelledby="remove-title" onClose={closeDialog} data-testid="remove-dialog">
        <h2 id="remove-title">{target?.you ? "Napustiti tim?" : "Ukloniti člana?"}</h2>
        <p>
          {target?.you
            ? "Nakon toga više nemate pristup ovom računu dok vas netko ponovno ne pozove."
            : `${target?.email ?? ""} više neće imati pristup ovom računu. Ključevi i podaci računa ostaju.`}
        </p>
        <DialogActions onCancel={closeDialog} onConfirm={confirmRemove} disabled={busy !== null} testId="confirm-remove" confirm={target?.you ? "Napusti tim" : "Ukloni člana"} />
      </dialog>
    </>
  );
}
