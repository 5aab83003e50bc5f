"use client";
// The webhooks page: addresses, their secrets and the delivery log. Each part is its own component;
// this one holds the state and calls the portal's procedures.
import { useRef, useState } from "react";
import { Alert } from "~/components/Alert";
import { olderPagesFor, olderPagesOf } from "~/lib/paging";
import { errorMessage, trpc } from "~/lib/trpc-client";
import { useAction } from "~/lib/use-action";
import { ConfirmDialog, type Confirm } from "./ConfirmDialog";
import { DeliveryLog } from "./DeliveryLog";
import { EndpointsTable } from "./EndpointsTable";
import { NewEndpointForm } from "./NewEndpointForm";
import type { Endpoint, EventsPage } from "./types";

export function WebhooksManager({ endpoints, events }: { endpoints: Endpoint[]; events: EventsPage }) {
  const { busy, setBusy, message, setMessage, run, router } = useAction();
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [newSecret, setNewSecret] = useState<string | null>(null);
  const [pages, setPages] = useState(() => olderPagesOf(events));
  // router.refresh() hands in a new first page; older pages are then dropped and paging starts over.
  const older = olderPagesFor(pages, events);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  /** Runs a call that answers { ok, … } and reports a thrown error in words. */
  async function attempt<T extends { ok: boolean; message?: string }>(key: string, call: () => Promise<T>, onOk: (r: T) => void): Promise<void> {
    setBusy(key);
    setMessage(null);
    try {
      const r = await call();
      if (r.ok) onOk(r);
      else setMessage({ kind: "error", text: r.message ?? "Nešto nije u redu. Pokušajte ponovno." });
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  async function onCreate(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    const eventTypes = form.getAll("eventTypes").map(String) as ("rate_limit.warning" | "invoice.fiscalized")[];
    if (eventTypes.length === 0) {
      setMessage({ kind: "error", text: "Odaberite barem jednu vrstu događaja." });
      formEl.querySelector<HTMLInputElement>('input[name="eventTypes"]')?.focus();
      return;
    }
    const input = { url: String(form.get("url") ?? ""), description: String(form.get("description") ?? "") || undefined, eventTypes };
    await attempt("create", () => trpc.webhooks.create.mutate(input), (r) => {
      if (!r.ok) return;
      setNewSecret(r.secret);
      setMessage({ kind: "ok", text: "Adresa je dodana. Potpise provjeravajte tajnom prikazanom ispod." });
      formEl.reset();
      router.refresh();
    });
    // A refused address: back to the field, with the message read out (the button was disabled meanwhile).
    requestAnimationFrame(() => {
      if (document.activeElement === document.body || document.activeElement === null) document.getElementById("wh-url")?.focus();
    });
  }

  function ask(kind: Confirm["kind"], endpoint: Endpoint) {
    setConfirm({ kind, endpoint });
    dialog.current?.showModal();
  }

  async function onConfirm() {
    if (!confirm) return;
    const { kind, endpoint } = confirm;
    if (kind === "remove") await run("confirm", () => trpc.webhooks.remove.mutate({ id: endpoint.id }), "Adresa je obrisana.");
    else
      await attempt("confirm", () => trpc.webhooks.rotateSecret.mutate({ id: endpoint.id }), (r) => {
        if (r.ok) setSecrets((s) => ({ ...s, [endpoint.id]: r.secret }));
        setMessage({ kind: "ok", text: "Nova tajna vrijedi odmah; stara više ne prolazi provjeru." });
      });
    dialog.current?.close();
  }

  async function loadOlder() {
    if (!older.cursor) return;
    const cursor = older.cursor;
    setBusy("older");
    try {
      const page = await trpc.webhooks.events.query({ cursor });
      setPages({ base: events, items: [...older.items, ...page.items], cursor: page.nextCursor });
    } catch (err) {
      setMessage({ kind: "error", text: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <>
      {message ? <Alert kind={message.kind} testId="webhooks-message">{message.text}</Alert> : null}
      <NewEndpointForm busy={busy} onCreate={onCreate} newSecret={newSecret} />
      <EndpointsTable
        endpoints={endpoints}
        secrets={secrets}
        busy={busy}
        onTest={(e) => run(`test-${e.id}`, () => trpc.webhooks.sendTest.mutate({ id: e.id }), "Testni događaj je u redu za slanje; pojavit će se u zapisniku ispod.")}
        onShowSecret={(e) =>
          attempt(`secret-${e.id}`, () => trpc.webhooks.secret.query({ id: e.id }), (r) => {
            if (r.ok) setSecrets((s) => ({ ...s, [e.id]: r.secret }));
          })
        }
        onAsk={ask}
        onEventTypes={(e, types) =>
          run(`events-${e.id}`, () => trpc.webhooks.setEventTypes.mutate({ id: e.id, eventTypes: types as ("rate_limit.warning" | "invoice.fiscalized")[] }), "Vrste događaja su spremljene.")
        }
        onToggle={(e) =>
          run(`toggle-${e.id}`, () => trpc.webhooks.setEnabled.mutate({ id: e.id, enabled: !e.enabled }), e.enabled ? "Adresa je isključena." : "Adresa je ponovno uključena.")
        }
      />
      <DeliveryLog
        events={[...events.items, ...older.items]}
        busy={busy}
        hasOlder={Boolean(older.cursor)}
        onOlder={loadOlder}
        onRedeliver={(ev, d) => run(`redeliver-${d.id}`, () => trpc.webhooks.redeliver.mutate({ deliveryId: d.id }), "Isporuka je ponovno u redu za slanje.")}
      />
      <ConfirmDialog dialog={dialog} confirm={confirm} busy={busy} onConfirm={onConfirm} />
    </>
  );
}
