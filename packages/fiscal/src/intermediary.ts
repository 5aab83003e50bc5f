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

export interface Intermediary {
  send(req: IntermediarySendRequest): Promise<{ id: string; status: "accepted" | "queued" }>;
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
}

export interface IntermediarySimulator extends Intermediary {
  inject(f: { failNext?: number }): void;
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
  let failNext = 0;

  return {
    inject(f) {
      if (f.failNext !== undefined) failNext = f.failNext;
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
