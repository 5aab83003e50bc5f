import http from "node:http";
import type { AddressInfo } from "node:net";
import { createAccount, createTestDatabase } from "@fiskal/accounts";
import { createDb, type Db } from "@fiskal/db";
import { Webhook } from "standardwebhooks";
import { createWebhooks, type Webhooks, type WebhooksOptions } from "../src/index.ts";

export type Received = {
  headers: Record<string, string>;
  body: string;
  at: number;
  /** The parsed payload if the signature verified with the receiver's current secret, else null. */
  verified: unknown;
};

export type Reply = { status: number; headers?: Record<string, string>; body?: string } | "hang";

/** A real HTTP receiver on loopback that verifies every request with standardwebhooks. */
export async function startReceiver(reply: (n: number, req: Received) => Reply = () => ({ status: 200 })) {
  const received: Received[] = [];
  const hanging: http.ServerResponse[] = [];
  let secret = "";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const body = Buffer.concat(chunks).toString("utf8");
      let verified: unknown = null;
      try {
        verified = new Webhook(secret).verify(body, headers);
      } catch {
        verified = null;
      }
      const entry: Received = { headers, body, at: Date.now(), verified };
      received.push(entry);
      const r = reply(received.length, entry);
      if (r === "hang") {
        hanging.push(res);
        return;
      }
      res.writeHead(r.status, r.headers ?? {});
      res.end(r.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    setSecret(s: string) {
      secret = s;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FAST: Partial<WebhooksOptions> = {
  retryDelaysMs: [100, 100, 100],
  timeoutMs: 1_000,
  jobExpireSeconds: 3,
  jobRetryDelaySeconds: 1,
};

export const FAST_WORKER = { pollIntervalMs: 500, maintenanceIntervalSeconds: 1, concurrency: 2 };

/** One migrated database per test file, with helpers to make accounts and webhook engines on it. */
export async function openTestDb() {
  const database = await createTestDatabase();
  const db: Db = createDb(database.url, { max: 4 });
  const engines: Webhooks[] = [];
  return {
    url: database.url,
    db,
    async account(name = "Test d.o.o.") {
      return createAccount(db, { name, plan: "STARTER" });
    },
    webhooks(options: Partial<WebhooksOptions> = {}): Webhooks {
      const w = createWebhooks({ db, databaseUrl: database.url, allowPrivate: true, ...FAST, ...options });
      engines.push(w);
      return w;
    },
    async close() {
      await Promise.all(engines.map((e) => e.close()));
      await db.$disconnect();
      await database.drop();
    },
  };
}

export type TestDb = Awaited<ReturnType<typeof openTestDb>>;
