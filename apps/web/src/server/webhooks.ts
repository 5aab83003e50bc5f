// One webhooks client per server process. The portal only enqueues (test events, redeliveries);
// the API process runs the delivery worker.
import { createWebhooks, type Webhooks } from "@fiskal/webhooks";
import { env } from "~/env";
import { db } from "~/server/db";

const holder = globalThis as typeof globalThis & { __fiskalWebhooks?: Webhooks };

export function webhooks(): Webhooks {
  const config = env();
  holder.__fiskalWebhooks ??= createWebhooks({
    db: db(),
    databaseUrl: config.databaseUrl,
    allowPrivate: config.webhooksAllowPrivate,
    poolSize: 2,
  });
  return holder.__fiskalWebhooks;
}
