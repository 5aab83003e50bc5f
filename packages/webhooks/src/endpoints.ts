import type { Db } from "@fiskal/db";
import { z } from "zod";
import { EVENT_TYPES } from "./events.ts";
import { generateSecret } from "./ids.ts";
import { validateWebhookUrl } from "./ssrf.ts";

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;

export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  enabled: boolean;
  /** Why the endpoint was disabled, e.g. after a 410 Gone; null when enabled or disabled by hand. */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type EndpointError =
  | { ok: false; error: "invalid_input"; message: string }
  | { ok: false; error: "invalid_url"; message: string }
  | { ok: false; error: "limit_reached"; message: string }
  | { ok: false; error: "not_found"; message: string };

export type CreateEndpointInput = { url: string; description?: string | null; eventTypes?: string[] };
export type UpdateEndpointInput = { url?: string; description?: string | null; eventTypes?: string[]; enabled?: boolean };

const uuid = z.uuid();
const description = z.string().trim().max(200).nullable().optional();
const eventTypes = z.array(z.enum(EVENT_TYPES)).min(1, "subscribe to at least one event type").max(EVENT_TYPES.length);
const createSchema = z.object({
  url: z.string().trim().min(1).max(2048),
  description,
  eventTypes: eventTypes.optional(),
});
const updateSchema = z.object({
  url: z.string().trim().min(1).max(2048).optional(),
  description,
  eventTypes: eventTypes.optional(),
  enabled: z.boolean().optional(),
});

const viewSelect = {
  id: true,
  url: true,
  description: true,
  eventTypes: true,
  enabled: true,
  disabledReason: true,
  createdAt: true,
  updatedAt: true,
} as const;

function invalid(error: z.ZodError): EndpointError {
  const message = error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
  return { ok: false, error: "invalid_input", message };
}

function notFound(): EndpointError {
  return { ok: false, error: "not_found", message: "no such webhook endpoint" };
}

/** Endpoint management for the portal; every call is scoped to the account that owns the endpoint. */
export function createEndpointStore(db: Db, allowPrivate: boolean) {
  const owned = (accountId: string, id: string) => (uuid.safeParse(accountId).success && uuid.safeParse(id).success ? { id, accountId } : null);

  /** Re-enabling clears `disabledReason`; a changed URL is validated like a new one. */
  async function update(
    accountId: string,
    id: string,
    input: UpdateEndpointInput,
  ): Promise<{ ok: true; endpoint: WebhookEndpointView } | EndpointError> {

    const where = owned(accountId, id);
    if (!where) return notFound();
    const parsed = updateSchema.safeParse(input);
    if (!parsed.success) return invalid(parsed.error);
    let href: string | undefined;
    if (parsed.data.url !== undefined) {
      const url = await validateWebhookUrl(parsed.data.url, { allowPrivate });
      if (!url.ok) return { ok: false, error: "invalid_url", message: url.reason };
      href = url.url.href;
    }
    const { enabled } = parsed.data;
    const result = await db.webhookEndpoint.updateMany({
      where,
      data: {
        ...(href !== undefined && { url: href }),
        ...(parsed.data.description !== undefined && { description: parsed.data.description || null }),
        ...(parsed.data.eventTypes !== undefined && { eventTypes: [...new Set(parsed.data.eventTypes)] }),
        ...(enabled !== undefined && { enabled, disabledReason: null }),
      },
    });
    if (result.count === 0) return notFound();
    const endpoint = await db.webhookEndpoint.findFirst({ where, select: viewSelect });
    return endpoint ? { ok: true, endpoint } : notFound();
  }

  return {
    async list(accountId: string): Promise<WebhookEndpointView[]> {
      if (!uuid.safeParse(accountId).success) return [];
      return db.webhookEndpoint.findMany({ where: { accountId }, select: viewSelect, orderBy: { createdAt: "asc" } });
    },

    /** Includes the signing secret, for the portal's "reveal secret". */
    async get(accountId: string, id: string): Promise<(WebhookEndpointView & { secret: string }) | null> {
      const where = owned(accountId, id);
      if (!where) return null;
      return db.webhookEndpoint.findFirst({ where, select: { ...viewSelect, secret: true } });
    },

    async create(
      accountId: string,
      input: CreateEndpointInput,
    ): Promise<{ ok: true; endpoint: WebhookEndpointView; secret: string } | EndpointError> {
      if (!uuid.safeParse(accountId).success) return { ok: false, error: "not_found", message: "no such account" };
      const parsed = createSchema.safeParse(input);
      if (!parsed.success) return invalid(parsed.error);
      const url = await validateWebhookUrl(parsed.data.url, { allowPrivate });
      if (!url.ok) return { ok: false, error: "invalid_url", message: url.reason };
      const secret = generateSecret();
      // The account row lock serializes concurrent creates, so the count is still true at the insert.
      const endpoint = await db.$transaction(async (tx) => {
        const account = await tx.$queryRaw<unknown[]>`SELECT 1 FROM "Account" WHERE id = ${accountId}::uuid FOR UPDATE`;
        if (account.length === 0) return "no_account" as const;
        const count = await tx.webhookEndpoint.count({ where: { accountId } });
        if (count >= MAX_ENDPOINTS_PER_ACCOUNT) return "limit_reached" as const;
        return tx.webhookEndpoint.create({
          data: {
            accountId,
            url: url.url.href,
            description: parsed.data.description || null,
            eventTypes: [...new Set(parsed.data.eventTypes ?? EVENT_TYPES)],
            secret,
          },
          select: viewSelect,
        });
      });
      if (endpoint === "no_account") return { ok: false, error: "not_found", message: "no such account" };
      if (endpoint === "limit_reached") {
        return { ok: false, error: "limit_reached", message: `an account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints` };
      }
      return { ok: true, endpoint, secret };
    },

    update,

    disable(accountId: string, id: string): Promise<{ ok: true; endpoint: WebhookEndpointView } | EndpointError> {
      return update(accountId, id, { enabled: false });
    },

    /** Deletes the endpoint with its deliveries and attempts; the events stay. */
    async remove(accountId: string, id: string): Promise<{ ok: true } | EndpointError> {
      const where = owned(accountId, id);
      if (!where) return notFound();
      const result = await db.webhookEndpoint.deleteMany({ where });
      return result.count === 0 ? notFound() : { ok: true };
    },

    /** The old secret stops working at once; receivers must switch to the returned one. */
    async rotateSecret(accountId: string, id: string): Promise<{ ok: true; secret: string } | EndpointError> {
      const where = owned(accountId, id);
      if (!where) return notFound();
      const secret = generateSecret();
      const result = await db.webhookEndpoint.updateMany({ where, data: { secret } });
      return result.count === 0 ? notFound() : { ok: true, secret };
    },
  };
}

export type EndpointStore = ReturnType<typeof createEndpointStore>;
