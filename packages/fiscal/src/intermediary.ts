// The e-invoice intermediary (informacijski posrednik) port and its throttling simulator.
import { randomUUID } from "node:crypto";
import { HR_CIUS_CUSTOMIZATION_ID } from "./einvoice.ts";
import { defaultUblValidator, type UblViolation } from "./intermediary-validators.ts";
import { checkOib } from "./oib.ts";

export interface IntermediarySendRequest {
  ubl: string;
  sellerOib: string;
  /** The recipient's OIB; absent for a foreign buyer reached by another electronic address. */
  buyerOib?: string;
  buyerEndpoint?: { scheme: string; id: string };
  messageId: string;
}

/** A document the intermediary delivered to a recipient, waiting in its inbox until acknowledged. */
export interface InboxDocument {
  /** The intermediary's id of this delivery: the same on every redelivery of the message. */
  messageId: string;
  /** The OIB the document was delivered to (the buyer). */
  recipientOib: string;
  /** The UBL document exactly as delivered. */
  ubl: string;
  /** ISO 8601: when the intermediary delivered it. */
  deliveredAt: string;
}

export interface Intermediary {
  send(req: IntermediarySendRequest): Promise<{ id: string; status: "accepted" | "queued" }>;
  /**
   * The receive side: documents delivered to `oib` and not yet acknowledged, oldest first (at most
   * `limit`). Delivery is at least once: a document stays in the inbox, and is fetched again, until
   * `acknowledge` names its message id. Absent on a port that only sends.
   */
  fetchInbox?(req: { oib: string; limit?: number }): Promise<InboxDocument[]>;
  /** Removes delivered documents from `oib`'s inbox; unknown ids are ignored. */
  acknowledge?(req: { oib: string; messageIds: string[] }): Promise<void>;
}

/**
 * "throttled" carries retryAfterSeconds; "unavailable" is worth retrying; "rejected" is not, and carries
 * the ids of the rules the document broke (e.g. ["BR-CL-23"]).
 */
export class IntermediaryError extends Error {
  override readonly name = "IntermediaryError";
  constructor(
    message: string,
    readonly kind: "throttled" | "unavailable" | "rejected",
    readonly retryAfterSeconds?: number,
    readonly rules: string[] = [],
  ) {
    super(message);
  }
}

export interface IntermediarySimulatorOptions {
  /** Response time range in ms, default [30, 120]. */
  latencyMs?: [number, number];
  /** Sends admitted in any rolling second; beyond that "throttled". Default 20. */
  perSecond?: number;
  /** Source of randomness for latency and queueing. Default Math.random. */
  random?: () => number;
  /** Probability that an accepted document is "queued" (recipient not reachable right now). Default 0. */
  queuedRate?: number;
  /** Clock in ms, for tests of the rolling window. Default Date.now. */
  now?: () => number;
  /**
   * The document checks of the access point; fatal violations refuse the document with their rule ids.
   * Default `defaultUblValidator` (the structural HR CIUS / EN 16931 rules, in-process); `xsdUblValidator`
   * adds the UBL 2.1 XSD through xmllint; `officialValidator()` runs the three official validators on
   * every document (a JVM per send). CI runs all three over every example document the API stored.
   */
  validate?: (ubl: string) => Promise<UblViolation[]> | UblViolation[];
  /**
   * An accepted document with a buyer OIB is also queued in that buyer's inbox, as the network
   * delivers it (so one Fiskal account's e-invoice reaches another's). Default false: the inboxes
   * hold only what `deliver` puts there.
   */
  deliverToBuyers?: boolean;
}

export interface IntermediarySimulator extends Intermediary {
  /** `failNext`: the next sends fail as "unavailable"; `failInbox`: the next inbox fetches or acknowledgements. */
  inject(f: { failNext?: number; failInbox?: number }): void;
  /**
   * Another sender's e-invoice, queued for the buyer `toOib` (what a real access point receives from
   * the network). `messageId` defaults to a new UUID; delivering one again is a redelivery.
   */
  deliver(toOib: string, ubl: string, opts?: { messageId?: string; deliveredAt?: Date }): { messageId: string };
  fetchInbox(req: { oib: string; limit?: number }): Promise<InboxDocument[]>;
  acknowledge(req: { oib: string; messageIds: string[] }): Promise<void>;
  /** Documents waiting in an inbox (not acknowledged). */
  inboxSize(oib: string): number;
}

// Remembered message ids, so a resend of the same message returns the same document id like a real
// intermediary's duplicate detection; bounded so a long-running process does not grow without end.
const DEDUPE_LIMIT = 10_000;

/**
 * In-process intermediary: a rolling one-second admission window (`perSecond`), latency, injectable
 * outages, duplicate detection by messageId, and basic document checks.
 */
export function createIntermediarySimulator(opts: IntermediarySimulatorOptions = {}): IntermediarySimulator {
  const [minMs, maxMs] = opts.latencyMs ?? [30, 120];
  const perSecond = opts.perSecond ?? 20;
  const random = opts.random ?? Math.random;
  const queuedRate = opts.queuedRate ?? 0;
  const now = opts.now ?? Date.now;
  const validate = opts.validate ?? defaultUblValidator;
  const admitted: number[] = [];
  const seen = new Map<string, { id: string; status: "accepted" | "queued" }>();
  const inboxes = new Map<string, Map<string, InboxDocument>>();
  let failNext = 0;
  let failInbox = 0;
  const unavailable = () => {
    if (failInbox <= 0) return;
    failInbox--;
    throw new IntermediaryError("intermediary temporarily unavailable", "unavailable");
  };
  const inboxOf = (oib: string) => {
    let inbox = inboxes.get(oib);
    if (!inbox) inboxes.set(oib, (inbox = new Map()));
    return inbox;
  };

  return {
    inject(f) {
      if (f.failNext !== undefined) failNext = f.failNext;
      if (f.failInbox !== undefined) failInbox = f.failInbox;
    },
    deliver(toOib, ubl, o = {}) {
      if (!checkOib(toOib).valid) throw new IntermediaryError("recipient OIB is not valid", "rejected");
      const messageId = o.messageId ?? randomUUID();
      inboxOf(toOib).set(messageId, { messageId, recipientOib: toOib, ubl, deliveredAt: (o.deliveredAt ?? new Date(now())).toISOString() });
      return { messageId };
    },
    async fetchInbox(req) {
      await delay(minMs + random() * Math.max(0, maxMs - minMs));
      unavailable();
      return [...(inboxes.get(req.oib)?.values() ?? [])].slice(0, req.limit ?? 100).map((d) => ({ ...d }));
    },
    async acknowledge(req) {
      await delay(minMs + random() * Math.max(0, maxMs - minMs));
      unavailable();
      const inbox = inboxes.get(req.oib);
      for (const id of req.messageIds) inbox?.delete(id);
    },
    inboxSize(oib) {
      return inboxes.get(oib)?.size ?? 0;
    },
    async send(req) {
      const t = now();
      while (admitted.length > 0 && admitted[0]! <= t - 1000) admitted.shift();
      if (admitted.length >= perSecond) {
        const retryAfterSeconds = Math.max(1, Math.ceil((admitted[0]! + 1000 - t) / 1000));
        throw new IntermediaryError(`more than ${perSecond} documents per second`, "throttled", retryAfterSeconds);
      }
      admitted.push(t);
      const fail = failNext > 0;
      if (fail) failNext--;
      // The document checks run while the simulated network latency elapses.
      const checks = fail ? Promise.resolve([]) : Promise.resolve(validate(req.ubl)).catch((err: unknown) => [{ rule: "validator", flag: "fatal" as const, message: (err as Error).message }]);
      await delay(minMs + random() * Math.max(0, maxMs - minMs));
      if (fail) throw new IntermediaryError("intermediary temporarily unavailable", "unavailable");
      const problem = documentProblem(req);
      if (problem) throw new IntermediaryError(problem, "rejected");
      const violations = (await checks).filter((v) => v.flag === "fatal");
      if (violations.length) {
        const rules = [...new Set(violations.map((v) => v.rule))];
        throw new IntermediaryError(`document fails validation: ${violations.map((v) => `[${v.rule}] ${v.message}`).join("; ").slice(0, 2000)}`, "rejected", undefined, rules);
      }
      const previous = seen.get(req.messageId);
      if (previous) return previous;
      const result = { id: randomUUID(), status: random() < queuedRate ? ("queued" as const) : ("accepted" as const) };
      seen.set(req.messageId, result);
      if (opts.deliverToBuyers && req.buyerOib) inboxOf(req.buyerOib).set(result.id, { messageId: result.id, recipientOib: req.buyerOib, ubl: req.ubl, deliveredAt: new Date(now()).toISOString() });
      if (seen.size > DEDUPE_LIMIT) seen.delete(seen.keys().next().value!);
      return result;
    },
  };
}

function documentProblem(req: IntermediarySendRequest): string | null {
  if (typeof req.messageId !== "string" || req.messageId.trim() === "") return "messageId is required";
  if (!checkOib(req.sellerOib).valid) return "sender OIB is not valid";
  if (req.buyerOib !== undefined ? !checkOib(req.buyerOib).valid : !req.buyerEndpoint?.id) return "recipient OIB is not valid";
  if (typeof req.ubl !== "string" || !/<(?:\w+:)?(Invoice|CreditNote)[\s>]/.test(req.ubl)) return "document is not a UBL Invoice or CreditNote";
  if (!req.ubl.includes(HR_CIUS_CUSTOMIZATION_ID)) return "document does not declare the HR CIUS 2025 CustomizationID";
  const recipient = req.buyerOib ?? req.buyerEndpoint!.id;
  if (!req.ubl.includes(`>${req.sellerOib}</`) || !req.ubl.includes(`>${recipient}</`)) return "sender or recipient does not appear in the document";
  return null;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
