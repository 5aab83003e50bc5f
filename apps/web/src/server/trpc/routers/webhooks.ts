// Webhook endpoints and deliveries of the signed-in account (logic lives in @fiskal/webhooks).
import { EVENT_TYPES, MAX_ENDPOINTS_PER_ACCOUNT, type EndpointError, type RateLimitedResult } from "@fiskal/webhooks";
import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { webhookSendAdmission, webhookSendRefusedMessage } from "~/server/webhook-limits";
import { audit } from "~/server/audit";
import { webhooks } from "~/server/webhooks";
import { webhookUrlProblem } from "~/server/webhook-messages";
import { developerProcedure } from "../trpc";

type Failure = { ok: false; message: string };

/** Croatian sentence for an outcome of the webhooks package; its own detail is kept in brackets. */
function failure(e: EndpointError | RateLimitedResult | { ok: false; error: "endpoint_disabled" | "not_found"; message: string }): Failure {
  switch (e.error) {
    case "invalid_url":
      return { ok: false, message: webhookUrlProblem(e.message) };
    case "invalid_input":
      return { ok: false, message: "Neispravan unos: provjerite adresu i opis." };
    case "limit_reached":
      return { ok: false, message: `Račun može imati najviše ${MAX_ENDPOINTS_PER_ACCOUNT} webhook adresa.` };
    case "endpoint_disabled":
      return { ok: false, message: "Adresa je isključena. Uključite je prije slanja." };
    case "not_found":
      return { ok: false, message: "Webhook adresa ili isporuka ne postoji." };
    case "rate_limited":
      return { ok: false, message: webhookSendRefusedMessage(e.retryAfterSeconds) };
  }
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

const endpointId = z.object({ id: z.uuid("Neispravna adresa.") });

/** The event types an address receives; at least one. */
const eventTypes = z
  .array(z.enum(EVENT_TYPES, "Nepoznata vrsta događaja."))
  .min(1, "Odaberite barem jednu vrstu događaja.")
  .max(EVENT_TYPES.length, "Nepoznata vrsta događaja.");

export const webhooksRouter = {
  endpoints: developerProcedure.query(async ({ ctx }) => {
    const list = await webhooks().endpoints.list(ctx.accountId);
    return list.map((e) => ({ ...e, createdAt: e.createdAt.toISOString(), updatedAt: e.updatedAt.toISOString() }));
  }),

  create: developerProcedure
    .input(
      z.object({
        url: z.string().trim().min(1, "Unesite URL.").max(2048, "URL je predugačak."),
        description: z.string().trim().max(200, "Opis može imati najviše 200 znakova.").optional(),
        /** Without it the address receives every event type. */
        eventTypes: eventTypes.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const r = await webhooks().endpoints.create(ctx.accountId, {
        url: input.url,
        description: input.description || null,
        eventTypes: input.eventTypes ?? [...EVENT_TYPES],
      });
      if (r.ok) await audit(ctx, { action: "webhook.created", target: r.endpoint.url, detail: { endpointId: r.endpoint.id, eventTypes: r.endpoint.eventTypes } });
      return r.ok ? { ok: true as const, id: r.endpoint.id, secret: r.secret } : failure(r);
    }),

  secret: developerProcedure.input(endpointId).query(async ({ ctx, input }) => {
    const e = await webhooks().endpoints.get(ctx.accountId, input.id);
    return e ? { ok: true as const, secret: e.secret } : failure({ ok: false, error: "not_found", message: "" });
  }),

  rotateSecret: developerProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    const r = await webhooks().endpoints.rotateSecret(ctx.accountId, input.id);
    if (r.ok) await audit(ctx, { action: "webhook.secret_rotated", target: input.id, detail: { endpointId: input.id } });
    return r.ok ? { ok: true as const, secret: r.secret } : failure(r);
  }),

  setEnabled: developerProcedure
    .input(endpointId.extend({ enabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const r = await webhooks().endpoints.update(ctx.accountId, input.id, { enabled: input.enabled });
      if (r.ok) await audit(ctx, { action: input.enabled ? "webhook.enabled" : "webhook.disabled", target: input.id, detail: { endpointId: input.id } });
      return r.ok ? { ok: true as const } : failure(r);
    }),

  setEventTypes: developerProcedure.input(endpointId.extend({ eventTypes })).mutation(async ({ ctx, input }) => {
    const r = await webhooks().endpoints.update(ctx.accountId, input.id, { eventTypes: input.eventTypes });
    if (r.ok) await audit(ctx, { action: "webhook.updated", target: r.endpoint.url, detail: { endpointId: input.id, eventTypes: r.endpoint.eventTypes } });
    return r.ok ? { ok: true as const } : failure(r);
  }),

  remove: developerProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    const before = await webhooks().endpoints.get(ctx.accountId, input.id);
    const r = await webhooks().endpoints.remove(ctx.accountId, input.id);
    if (r.ok) await audit(ctx, { action: "webhook.deleted", target: before?.url ?? input.id, detail: { endpointId: input.id } });
    return r.ok ? { ok: true as const } : failure(r);
  }),

  sendTest: developerProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    const r = await webhooks().sendTestEvent(ctx.accountId, input.id, { admit: webhookSendAdmission(ctx.accountId) });
    return r.ok ? { ok: true as const } : failure(r);
  }),

  redeliver: developerProcedure.input(z.object({ deliveryId: z.uuid("Neispravna isporuka.") })).mutation(async ({ ctx, input }) => {
    const r = await webhooks().redeliver(ctx.accountId, input.deliveryId, { admit: webhookSendAdmission(ctx.accountId) });
    if (!r.ok) return failure(r);
    return r.alreadyQueued ? { ok: true as const, message: "Ponovno slanje već čeka u redu; nije dodano još jedno." } : { ok: true as const };
  }),

  events: developerProcedure
    .input(z.object({ cursor: z.string().max(100).optional() }))
    .query(async ({ ctx, input }) => {
      const page = await webhooks().listEvents(ctx.accountId, { limit: 20, cursor: input.cursor ?? null });
      return {
        nextCursor: page.nextCursor,
        items: page.items.map((ev) => ({
          id: ev.id,
          type: ev.type,
          createdAt: ev.createdAt.toISOString(),
          payload: JSON.stringify(ev.payload, null, 2),
          deliveries: ev.deliveries.map((d) => ({
            id: d.id,
            endpointId: d.endpointId,
            endpointUrl: d.endpointUrl,
            status: d.status,
            attemptCount: d.attemptCount,
            nextAttemptAt: iso(d.nextAttemptAt),
            attempts: d.attempts.map((a) => ({ ...a, startedAt: a.startedAt.toISOString() })),
          })),
        })),
      };
    }),
} satisfies TRPCRouterRecord;
