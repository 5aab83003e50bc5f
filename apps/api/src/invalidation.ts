// Cross-instance cache invalidation: account changes are announced with PostgreSQL NOTIFY.
import pg from "pg";
import type { Logger } from "pino";
import { INVALIDATION_CHANNEL } from "@fiskal/accounts";

export interface InvalidationListener {
  close(): Promise<void>;
}

/** Listens for `{"accountId": "..."}` notifications; reconnects with backoff and flushes everything on reconnect. */
export function listenForInvalidations(
  databaseUrl: string,
  handlers: { account(accountId: string): void; all(): void },
  log: Logger,
): InvalidationListener {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = 250;

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl });
    client = c;
    c.on("error", (err) => {
      log.warn({ err }, "invalidation listener lost its connection");
      schedule();
    });
    c.on("notification", (msg) => {
      try {
        const payload = JSON.parse(msg.payload ?? "{}") as { accountId?: string };
        if (payload.accountId) handlers.account(payload.accountId);
        else handlers.all();
      } catch {
        handlers.all();
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${INVALIDATION_CHANNEL}`);
      delay = 250;
      // Anything may have changed while we were not listening.
      handlers.all();
    } catch (err) {
      log.warn({ err }, "invalidation listener could not connect");
      schedule();
    }
  };

  const schedule = () => {
    if (closed || retry) return;
    const old = client;
    client = null;
    old?.end().catch(() => {});
    retry = setTimeout(() => {
      retry = null;
      void connect();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, 5_000);
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
