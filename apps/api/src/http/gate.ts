// The gate every /v1 and /trpc request passes: authenticate, decide every window, set the headers.
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  ANONYMOUS_LIMITS,
  bindingWindow,
  ENDPOINT_GROUPS,
  forwardedClientIp,
  rateLimitExceededBody,
  rateLimitHeaders,
  type Decision,
  type EndpointGroup,
  type Limits,
  type WindowState,
} from "@fiskal/limits";
import { ApiError, docUrl, INTERNAL_MESSAGE, SERVICE_UNAVAILABLE_MESSAGE, SERVICE_UNAVAILABLE_RETRY_AFTER_S } from "../errors.ts";
import { AUTH_MESSAGES, AuthUnavailableError, type AuthOutcome } from "../auth.ts";
import type { Services } from "../services.ts";
import type { Principal } from "../trpc.ts";

export interface GateResult {
  principal: Principal | null;
  decision: Decision | null;
  /** 401, 429, 500 or 503 to answer with; null when the request may proceed. */
  error: ApiError | null;
}

/**
 * The client address: with `trustedHops` proxies in front, the one they report in X-Forwarded-For
 * (the rule is forwardedClientIp in @fiskal/limits, shared with the portal), else the socket peer.
 */
export function clientIp(req: IncomingMessage, trustedHops: number): string {
  return forwardedClientIp(req.headers["x-forwarded-for"], trustedHops) ?? req.socket.remoteAddress ?? "unknown";
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
  opts: { group?: EndpointGroup; requireAuth: boolean; statusLimits?: Limits },
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
    if (auth.kind !== "valid" && (opts.requireAuth || auth.kind !== "missing")) noteFailure(services, res, auth);
    const principal = auth.kind === "valid" ? auth.principal : null;
    const decision = principal
      ? opts.statusLimits
        ? await peekDecision(services, principal, opts.statusLimits)
        : await timed(services, () =>
            services.limiter.decide({ identity: `acct:${principal.accountId}`, limits: principal.limits, endpoint: opts.group }),
          )
      : await decideAnonymous(services, ip);

    if (!decision.allowed) return refuse(services, res, principal, decision, principal ? undefined : ip);
    setHeaders(res, decision);
    if (principal) {
      const day = decision.windows.find((w) => w.name === "day");
      if (day && services.warnings && !opts.statusLimits) {
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
    if (err instanceof AuthUnavailableError) return unavailable(services, res, err, ip, opts.group);
    // Authentication or the limiter failed otherwise (e.g. an account's stored limits are invalid):
    // answer 500, still with rate-limit headers when the per-IP decision can be had.
    services.log.error({ err, requestId: res.getHeader("X-Request-Id") }, "gate failed");
    const decision = await decideAnonymous(services, ip).catch(() => null);
    if (decision) setHeaders(res, decision);
    return { principal: null, decision, error: new ApiError("internal_error", INTERNAL_MESSAGE) };
  }
}

function noteFailure(services: Services, res: ServerResponse, auth: Exclude<AuthOutcome, { kind: "valid" }>) {
  services.metrics.authFailures.inc({ reason: auth.kind });
  // The client is told the same for an unknown and a revoked key; the log keeps the difference.
  if (auth.kind === "revoked") {
    services.log.info({ requestId: res.getHeader("X-Request-Id"), accountId: auth.accountId }, "request with a revoked API key");
  }
}

/**
 * The database could not be asked about a well-formed key: 503 service_unavailable with
 * Retry-After. Nothing is counted — the request was not judged, and a guesser learns nothing from an
 * answer every key gets alike. The headers describe the account's windows where an expired cache
 * entry still names the account, else the address's anonymous windows; both read without counting.
 */
async function unavailable(services: Services, res: ServerResponse, err: AuthUnavailableError, ip: string, group?: EndpointGroup): Promise<GateResult> {
  services.metrics.authFailures.inc({ reason: "unavailable" });
  services.log.error({ err: err.cause ?? err, requestId: res.getHeader("X-Request-Id") }, "API key lookup failed: database unavailable");
  const known = err.cached?.kind === "valid" ? err.cached.principal : null;
  const decision = await services.limiter
    .peek(
      known
        ? { identity: `acct:${known.accountId}`, limits: known.limits, endpoints: group ? [group] : undefined }
        : { identity: `ip:${ip}`, limits: ANONYMOUS_LIMITS },
    )
    .then(observedDecision)
    .catch(() => null);
  if (decision) setHeaders(res, decision);
  if (!res.headersSent) res.setHeader("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
  return { principal: null, decision, error: new ApiError("service_unavailable", SERVICE_UNAVAILABLE_MESSAGE) };
}

/** Windows read without counting, as a decision for the headers: the binding one has the fewest left. */
function observedDecision(windows: WindowState[]): Decision {
  return { allowed: true, windows, binding: bindingWindow(windows), degraded: false, decidedAt: Date.now() };
}

/**
 * The per-IP decision for a request that never reached the gate (the HTTP parser rejected it, or it
 * was CONNECT): counted against the address's anonymous quota like any unauthenticated request.
 * `refused` is the 429 to answer with when the address is over that quota.
 */
export async function decidePerIp(services: Services, ip: string, requestId: string): Promise<{ headers: Record<string, string>; refused: ApiError | null }> {
  try {
    const decision = await decideAnonymous(services, ip);
    const headers = rateLimitHeaders(decision);
    if (decision.allowed) return { headers, refused: null };
    const body = rateLimitExceededBody(decision, docUrl(services.portalUrl, "rate_limit_exceeded"));
    return { headers, refused: new ApiError("rate_limit_exceeded", body.error.message) };
  } catch (err) {
    services.log.error({ err, requestId }, "per-IP decision failed");
    return { headers: {}, refused: null };
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
  // A request answered early (e.g. its body timed out while the gate was deciding) keeps that answer.
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
}

function refuse(services: Services, res: ServerResponse, principal: Principal | null, decision: Decision, ip?: string): GateResult {
  setHeaders(res, decision);
  if (ip && decision.retryAfterSeconds) block(ip, Date.now() + decision.retryAfterSeconds * 1000);
  const body = rateLimitExceededBody(decision, docUrl(services.portalUrl, "rate_limit_exceeded"));
  return { principal, decision, error: new ApiError("rate_limit_exceeded", body.error.message) };
}

/**
 * For free status calls, in one script execution: the status allowance (windows "status:*" of the
 * account) is counted, and the account's own windows, every endpoint group's included, are read
 * without counting. Admitted, the headers describe the account's windows, as on any other call.
 */
async function peekDecision(services: Services, principal: Principal, statusLimits: Limits): Promise<Decision> {
  const d = await timed(services, () =>
    services.limiter.decide({
      identity: `acct:${principal.accountId}`,
      limits: statusLimits,
      scope: "status",
      observe: { limits: principal.limits, endpoints: ENDPOINT_GROUPS },
    }),
  );
  if (!d.allowed) return d;
  const windows = (d.observed ?? []).filter((w) => w.name !== "endpoint");
  return { ...d, windows, binding: bindingWindow(windows) };
}
