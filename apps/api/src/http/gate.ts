// The gate every /v1 and /trpc request passes: authenticate, decide every window, set the headers.
import { isIP } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ANONYMOUS_LIMITS, ENDPOINT_GROUPS, rateLimitExceededBody, rateLimitHeaders, type Decision, type EndpointGroup } from "@fiskal/limits";
import { ApiError, docUrl, INTERNAL_MESSAGE } from "../errors.ts";
import { AUTH_MESSAGES } from "../auth.ts";
import type { Services } from "../services.ts";
import type { Principal } from "../trpc.ts";

export interface GateResult {
  principal: Principal | null;
  decision: Decision | null;
  /** 401, 429 or 500 to answer with; null when the request may proceed. */
  error: ApiError | null;
}

/**
 * The client address: the socket peer, or with `trustedHops` proxies in front, the X-Forwarded-For
 * entry that many places from the right (the one our nearest trusted proxy wrote). Entries further
 * left were written by the client and prove nothing.
 */
export function clientIp(req: IncomingMessage, trustedHops: number): string {
  const peer = req.socket.remoteAddress ?? "unknown";
  if (trustedHops <= 0) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  const candidate = hops[hops.length - trustedHops];
  return candidate && candidate.length <= 45 && isIP(candidate) ? candidate : peer;
}

/**
 * Addresses whose unauthenticated quota is exhausted, until when. Such a client is refused before
 * its key is even looked up — otherwise a correct guess would still answer 200 and the per-IP limit
 * would not slow guessing at all. Per instance and bounded; the shared limiter stays the authority.
 */
const MAX_BLOCKED = 10_000;
const blockedUntil = new Map<string, number>();

function block(ip: string, until: number) {
  if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value as string);
  blockedUntil.set(ip, until);
}

export async function runGate(
  services: Services,
  req: IncomingMessage,
  res: ServerResponse,
  opts: { group?: EndpointGroup; requireAuth: boolean; free?: boolean },
): Promise<GateResult> {
  const ip = clientIp(req, services.trustProxyHops);
  try {
    const until = blockedUntil.get(ip);
    if (until !== undefined) {
      if (until > Date.now()) {
        const decision = await decideAnonymous(services, ip);
        if (!decision.allowed) return refuse(services, res, null, decision, ip);
      }
      blockedUntil.delete(ip);
    }

    const auth = await services.auth.authenticate(req.headers.authorization);
    const principal = auth.kind === "valid" ? auth.principal : null;
    const decision = principal
      ? opts.free
        ? await peekDecision(services, principal)
        : await timed(services, () =>
            services.limiter.decide({ identity: `acct:${principal.accountId}`, limits: principal.limits, endpoint: opts.group }),
          )
      : await decideAnonymous(services, ip);

    if (!decision.allowed) return refuse(services, res, principal, decision, principal ? undefined : ip);
    setHeaders(res, decision);
    if (principal) {
      const day = decision.windows.find((w) => w.name === "day");
      if (day && services.warnings && !opts.free) {
        services.warnings.observe({
          accountId: principal.accountId,
          plan: principal.plan,
          limitsVersion: principal.limitsVersion,
          day: { limit: day.limit, remaining: day.remaining, reset: day.reset },
        });
      }
      return { principal, decision, error: null };
    }
    if (auth.kind === "missing" && !opts.requireAuth) return { principal: null, decision, error: null };
    const kind = auth.kind === "valid" ? "unknown" : auth.kind;
    return { principal: null, decision, error: new ApiError("unauthorized", AUTH_MESSAGES[kind]) };
  } catch (err) {
    // Authentication or the limiter failed (e.g. the database is down): answer 500, still with
    // rate-limit headers when the per-IP decision can be had.
    services.log.error({ err: (err as Error).message }, "gate failed");
    const decision = await decideAnonymous(services, ip).catch(() => null);
    if (decision) setHeaders(res, decision);
    return { principal: null, decision, error: new ApiError("internal_error", INTERNAL_MESSAGE) };
  }
}

function decideAnonymous(services: Services, ip: string): Promise<Decision> {
  return timed(services, () => services.limiter.decide({ identity: `ip:${ip}`, limits: ANONYMOUS_LIMITS }));
}

async function timed(services: Services, decide: () => Promise<Decision>): Promise<Decision> {
  const started = performance.now();
  const decision = await decide();
  const { metrics } = services;
  metrics.decisionDuration.observe((performance.now() - started) / 1000);
  metrics.decisions.inc({
    outcome: decision.allowed ? "admitted" : "refused",
    window: decision.allowed ? "" : decision.binding.name,
    degraded: decision.degraded ? "1" : "0",
  });
  return decision;
}

function setHeaders(res: ServerResponse, decision: Decision) {
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
}

function refuse(services: Services, res: ServerResponse, principal: Principal | null, decision: Decision, ip?: string): GateResult {
  setHeaders(res, decision);
  if (ip && decision.retryAfterSeconds) block(ip, Date.now() + decision.retryAfterSeconds * 1000);
  const body = rateLimitExceededBody(decision, docUrl(services.portalUrl, "rate_limit_exceeded"));
  return { principal, decision, error: new ApiError("rate_limit_exceeded", body.error.message) };
}

/** Free status calls take nothing from the account's quota but have an allowance of their own. */
export const STATUS_LIMITS = { burst: 10, perMinute: 120, perDay: 20_000 } as const;

/**
 * For free status calls, in one script execution: the status allowance (windows "status:*" of the
 * account) is counted, and the account's own windows, every endpoint group's included, are read
 * without counting. Admitted, the headers describe the account's windows, as on any other call.
 */
async function peekDecision(services: Services, principal: Principal): Promise<Decision> {
  const d = await timed(services, () =>
    services.limiter.decide({
      identity: `acct:${principal.accountId}`,
      limits: STATUS_LIMITS,
      scope: "status",
      observe: { limits: principal.limits, endpoints: ENDPOINT_GROUPS },
    }),
  );
  if (!d.allowed) return d;
  const windows = (d.observed ?? []).filter((w) => w.name !== "endpoint");
  const binding = windows.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetInMs > a.resetInMs) ? b : a));
  return { ...d, windows, binding };
}
