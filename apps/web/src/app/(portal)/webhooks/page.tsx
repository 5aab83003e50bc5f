import type { Metadata } from "next";
import Link from "next/link";
import { serverApi } from "~/server/api";
import { WebhooksManager } from "./WebhooksManager";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const api = await serverApi();
  const [endpoints, events] = await Promise.all([api.webhooks.endpoints(), api.webhooks.events({})]);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p>
            Događaj <code>rate_limit.warning</code> stiže kad dnevna potrošnja prvi put u danu prijeđe 80 % kvote, a{" "}
            <code>invoice.fiscalized</code> kad račun izdan bez JIR-a (Porezna uprava nije bila dostupna) naknadnom dostavom dobije JIR. Zahtjevi su potpisani
            prema specifikaciji Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).{" "}
            <Link href="/docs/rate-limits#povecanje">Više o upozorenju</Link>
          </p>
        </div>
      </div>
      <WebhooksManager endpoints={endpoints} events={events} />
    </>
  );
}
