// A webhook receiver on loopback that verifies every delivery with the standardwebhooks library,
// the way the webhooks README tells customers to.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

type Delivery = {
  id: string;
  verified: boolean;
  error?: string;
  event?: { type: string; timestamp: string; data: Record<string, unknown> };
};

export type Receiver = {
  url: string;
  deliveries: Delivery[];
  /** The endpoint's secret, known once the portal has shown it; deliveries before that are refused. */
  setSecret(secret: string): void;
  waitFor(predicate: (d: Delivery) => boolean, what: string, timeoutMs: number): Promise<Delivery>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  let webhook: Webhook | null = null;
  const deliveries: Delivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      try {
        if (!webhook) throw new Error("no secret yet");
        const event = webhook.verify(body, {
          "webhook-id": id,
          "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
          "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
        }) as Delivery["event"];
        deliveries.push({ id, verified: true, event });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      } catch (err) {
        deliveries.push({ id, verified: false, error: (err as Error).message });
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/fiskal/webhook`,
    deliveries,
    setSecret(secret) {
      webhook = new Webhook(secret);
    },
    async waitFor(predicate, what, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(predicate);
        if (found) return found;
        if (Date.now() >= deadline) throw new Error(`${what}: no such delivery within ${timeoutMs} ms; received ${JSON.stringify(deliveries)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
