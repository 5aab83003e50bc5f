import type { Db } from "@fiskal/db";
import { z } from "zod";

export type DeliveryStatus = "pending" | "succeeded" | "failed";

export type AttemptLogEntry = {
  id: string;
  number: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** First 2 KiB of what the receiver answered. */
  responseBody: string | null;
  manual: boolean;
};

export type DeliveryLogEntry = {
  id: string;
  endpointId: string;
  endpointUrl: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: AttemptLogEntry[];
};

export type EventLogEntry = {
  id: string;
  type: string;
  createdAt: Date;
  /** The JSON body every delivery of this event carries. */
  payload: unknown;
  deliveries: DeliveryLogEntry[];
};

export type DeliveryWithEvent = DeliveryLogEntry & { event: { id: string; type: string; createdAt: Date } };

export type Page<T> = { items: T[]; nextCursor: string | null };
export type PageInput = { limit?: number; cursor?: string | null };

const uuid = z.uuid();
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

const attemptSelect = {
  id: true,
  number: true,
  startedAt: true,
  durationMs: true,
  statusCode: true,
  error: true,
  responseBody: true,
  manual: true,
} as const;

const deliverySelect = {
  id: true,
  endpointId: true,
  endpoint: { select: { url: true } },
  status: true,
  attemptCount: true,
  nextAttemptAt: true,
  createdAt: true,
  updatedAt: true,
  attempts: { select: attemptSelect, orderBy: { number: "asc" } },
} as const;

type DeliveryRow = {
  id: string;
  endpointId: string;
  endpoint: { url: string };
  status: string;
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  attempts: AttemptLogEntry[];
};

function toEntry({ endpoint, status, ...rest }: DeliveryRow): DeliveryLogEntry {
  return { ...rest, endpointUrl: endpoint.url, status: status as DeliveryStatus };
}

function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE;
  return Math.min(MAX_PAGE, Math.max(1, Math.floor(limit)));
}

function page<T extends { id: string }>(rows: T[], take: number): Page<T> {
  const items = rows.slice(0, take);
  return { items, nextCursor: rows.length > take ? (items.at(-1)?.id ?? null) : null };
}

/** Read side of the delivery log for the portal, newest first, always scoped to one account. */
export function createDeliveryLog(db: Db) {
  return {
    /** Events with their deliveries and every attempt. `cursor` is the last event id of the previous page. */
    async listEvents(accountId: string, input: PageInput = {}): Promise<Page<EventLogEntry>> {
      if (!uuid.safeParse(accountId).success) return { items: [], nextCursor: null };
      const take = pageSize(input.limit);
      const rows = await db.webhookEvent.findMany({
        where: { accountId },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: take + 1,
        ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
        select: {
          id: true,
          type: true,
          createdAt: true,
          payload: true,
          deliveries: { select: deliverySelect, orderBy: { createdAt: "asc" } },
        },
      });
      return page(
        rows.map((r) => ({ ...r, deliveries: r.deliveries.map(toEntry) })),
        take,
      );
    },

    /** Deliveries across events, optionally for one endpoint. `cursor` is the last delivery id. */
    async listDeliveries(
      accountId: string,
      input: PageInput & { endpointId?: string } = {},
    ): Promise<Page<DeliveryWithEvent>> {
      if (!uuid.safeParse(accountId).success) return { items: [], nextCursor: null };
      if (input.endpointId !== undefined && !uuid.safeParse(input.endpointId).success) return { items: [], nextCursor: null };
      if (input.cursor && !uuid.safeParse(input.cursor).success) return { items: [], nextCursor: null };
      const take = pageSize(input.limit);
      const rows = await db.webhookDelivery.findMany({
        where: { event: { accountId }, ...(input.endpointId ? { endpointId: input.endpointId } : {}) },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: take + 1,
        ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
        select: { ...deliverySelect, event: { select: { id: true, type: true, createdAt: true } } },
      });
      return page(
        rows.map(({ event, ...r }) => ({ ...toEntry(r), event })),
        take,
      );
    },

    async getDelivery(accountId: string, deliveryId: string): Promise<DeliveryWithEvent | null> {
      if (!uuid.safeParse(accountId).success || !uuid.safeParse(deliveryId).success) return null;
      const row = await db.webhookDelivery.findFirst({
        where: { id: deliveryId, event: { accountId } },
        select: { ...deliverySelect, event: { select: { id: true, type: true, createdAt: true } } },
      });
      if (!row) return null;
      const { event, ...rest } = row;
      return { ...toEntry(rest), event };
    },
  };
}

