// Limits on portal actions that make Fiskal send a real webhook request (test events, redeliveries):
// per account, burst 2/s, 10/min, 200/day, shared by both actions. Calls that send nothing (unknown
// or disabled endpoint, a redeliver already queued) are not counted.
import { sekundi, type Limits } from "@fiskal/limits";
import type { SendAdmission } from "@fiskal/webhooks";
import { portalLimiter } from "~/server/login-limits";

const WEBHOOK_SEND_LIMITS = { burst: 2, perMinute: 10, perDay: 200 } as const satisfies Limits;

export function webhookSendAdmission(accountId: string): SendAdmission {
  return async () => {
    const d = await portalLimiter().decide({ identity: `webhook-send:account:${accountId}`, limits: WEBHOOK_SEND_LIMITS });
    return d.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: d.retryAfterSeconds ?? 60 };
  };
}

export function webhookSendRefusedMessage(retryAfterSeconds: number): string {
  return `Previše slanja webhookova. Pokušajte ponovno za ${sekundi(retryAfterSeconds)}.`;
}
