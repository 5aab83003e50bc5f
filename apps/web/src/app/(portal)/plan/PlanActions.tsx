"use client";
import { Alert } from "~/components/Alert";
import { formatDateTime, PLAN_LABELS } from "~/lib/format";
import { trpc } from "~/lib/trpc-client";
import { useAction } from "~/lib/use-action";

// Plan order and the self-service plans come from the server page (@fiskal/limits): importing the
// package here would bring zod into the browser, whose eval probe the Content Security Policy blocks.
type Props = { plan: string; order: readonly string[]; selfService: readonly ("STARTER" | "BUSINESS")[]; pending: { id: string; plan: string; createdAt: string } | null };

export function PlanActions({ plan, order: ORDER, selfService, pending }: Props) {
  const { busy, message, run } = useAction();

  async function onEnterprise(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const ok = await run(
      "ENTERPRISE",
      () => trpc.plan.contactEnterprise.mutate({ expectedVolume: String(form.get("volume") ?? ""), message: String(form.get("message") ?? "") }),
      "Hvala! Vaš upit za Enterprise je zaprimljen; javit ćemo vam se s prijedlogom ograničenja.",
    );
    if (ok) formEl.reset();
  }

  const rank = ORDER.indexOf(plan);
  const locked = Boolean(pending);

  return (
    <div className="grid two">
      <section className="card" aria-labelledby="upgrade-title">
        <div className="card-head">
          <h2 id="upgrade-title">Veći paket</h2>
        </div>
        {message ? <Alert kind={message.kind} testId="plan-message">{message.text}</Alert> : null}
        {pending ? (
          <Alert kind="info" title="Zahtjev je na čekanju" testId="pending-request">
            Zatražili ste paket {PLAN_LABELS[pending.plan]} ({formatDateTime(pending.createdAt)}). Operater ga obično obradi unutar jednog
            radnog dana.
          </Alert>
        ) : null}
        {pending ? (
          <div className="row-actions" style={{ marginBottom: 16 }}>
            <button
              type="button"
              className="btn ghost-danger small"
              disabled={busy !== null}
              data-testid="cancel-request"
              onClick={() => run("cancel", () => trpc.plan.cancelRequest.mutate({ requestId: pending.id }), "Zahtjev je otkazan. Možete zatražiti drugi paket.")}
            >
              {busy === "cancel" ? "Otkazivanje…" : `Otkaži zahtjev za ${PLAN_LABELS[pending.plan]}`}
            </button>
          </div>
        ) : null}
        <p style={{ color: "var(--muted)" }}>
          {rank >= ORDER.indexOf("BUSINESS")
            ? "Već imate najveći standardni paket. Za veća ograničenja pošaljite upit za Enterprise."
            : "Operater pregledava zahtjev; nova ograničenja vrijede od sljedećeg zahtjeva nakon odobrenja."}
        </p>
        <div className="row-actions">
          {selfService.map((p) => {
            const notHigher = ORDER.indexOf(p) <= rank;
            return (
              <button
                key={p}
                type="button"
                className={p === "BUSINESS" ? "btn" : "btn secondary"}
                disabled={locked || notHigher || busy !== null}
                data-testid={`upgrade-${p.toLowerCase()}`}
                onClick={() => run(p, () => trpc.plan.requestUpgrade.mutate({ plan: p }), `Zahtjev za paket ${PLAN_LABELS[p]} je poslan.`)}
                title={notHigher ? "Vaš paket je već jednak ili veći" : undefined}
              >
                {busy === p ? "Slanje…" : `Zatraži ${PLAN_LABELS[p]}`}
              </button>
            );
          })}
        </div>
      </section>

      <section className="card" aria-labelledby="enterprise-title">
        <div className="card-head">
          <h2 id="enterprise-title">Enterprise</h2>
          <span className="hint">ograničenja po mjeri</span>
        </div>
        <form onSubmit={onEnterprise} data-testid="enterprise-form">
          <div className="field">
            <label htmlFor="ent-volume">Očekivani volumen</label>
            <input id="ent-volume" name="volume" required maxLength={200} placeholder="npr. 2 milijuna zahtjeva mjesečno, vrhovi 800/min" disabled={locked} />
          </div>
          <div className="field">
            <label htmlFor="ent-message">Poruka</label>
            <textarea
              id="ent-message"
              name="message"
              required
              minLength={10}
              maxLength={2000}
              placeholder="Opišite svoj sustav, broj prodajnih mjesta i vršna opterećenja."
              disabled={locked}
            />
          </div>
          <button type="submit" className="btn secondary" disabled={locked || busy !== null} data-testid="enterprise-submit">
            {busy === "ENTERPRISE" ? "Slanje…" : "Pošalji upit"}
          </button>
        </form>
      </section>
    </div>
  );
}
