// The gate every /v1 and /trpc request passes: authenticate, decide every window, set the headers.
import type { IncomingMessage } from "node:http";
import {
  ANONYMOUS_LIMITS,
  anonymousDecision,
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

/** What the gate uses of a response: the exchange's header block (server.ts) or the response itself. */
type GateResponse = { readonly headersSent: boolean; setHeader(name: string, value: string): unknown; getHeader(name: string): unknown };

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
 * The one decision of a request. A request with a valid key is decided by its account's windows only
 * — never by its address's: many tenants share one address (a vendor's NAT, carrier-grade NAT, a
 * proxy), and one integration sending no key or a wrong one must not stop the others. Every other
 * request — no key, a malformed, unknown, revoked or expired one — is counted in the address's
 * anonymous windows and refused by them (429) once they are full.
 *
 * Key guessing: a key has 32 random characters (190 bits), so it is not guessed however fast one
 * asks; what the anonymous windows bound is what keyless and wrong-key traffic costs. A missing or
 * malformed key is decided without the database. A well-formed key is looked up once per cache period
 * (one indexed read by hash; concurrent lookups of one key share it, and unknown, revoked and
 * expired keys are cached like valid ones), and only then, if it is not valid, counted per address.
 */
export async function runGate(
  services: Services,
  req: IncomingMessage,
  res: GateResponse,
  opts: { group?: EndpointGroup; requireAuth: boolean; statusLimits?: Limits },
): Promise<GateResult> {
  const ip = clientIp(req, services.trustProxyHops);
  try {
    const auth = await services.auth.authenticate(req.headers.authorization);
    if (auth.kind !== "valid") {
      if (opts.requireAuth || auth.kind !== "missing") noteFailure(services, res, auth);
      const decision = await decideAnonymous(services, ip);
      if (!decision.allowed) return refuse(services, res, null, decision);
      setHeaders(res, decision);
      if (auth.kind === "missing" && !opts.requireAuth) return { principal: null, decision, error: null };
      return { principal: null, decision, error: new ApiError("unauthorized", AUTH_MESSAGES[auth.kind]) };
    }

    const principal = auth.principal;
    const decision = opts.statusLimits
      ? await peekDecision(services, principal, opts.statusLimits)
      : await timed(services, () =>
          services.limiter.decide({ identity: `acct:${principal.accountId}`, limits: principal.limits, endpoint: opts.group }),
        );
    if (!decision.allowed) return refuse(services, res, principal, decision);
    setHeaders(res, decision);
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
  } catch (err) {
    if (err instanceof AuthUnavailableError) return unavailable(services, res, err, ip, opts.group);
    // Authentication or the limiter failed otherwise (e.g. an account's stored limits are invalid):
    // answer 500, still with rate-limit headers: the address's anonymous windows, read without
    // counting (the key may well be valid).
    services.log.error({ err, requestId: res.getHeader("X-Request-Id") }, "gate failed");
    const decision = await peekAnonymous(services, ip).catch(() => null);
    if (decision) setHeaders(res, decision);
    return { principal: null, decision, error: new ApiError("internal_error", INTERNAL_MESSAGE) };
  }
}

function noteFailure(services: Services, res: GateResponse, auth: Exclude<AuthOutcome, { kind: "valid" }>) {
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
async function unavailable(services: Services, res: GateResponse, err: AuthUnavailableError, ip: string, group?: EndpointGroup): Promise<GateResult> {
  services.metrics.authFailures.inc({ reason: "unavailable" });
  services.log.error({ err: err.cause ?? err, requestId: res.getHeader("X-Request-Id") }, "API key lookup failed: database unavailable");
  const known = err.cached?.kind === "valid" ? err.cached.principal : null;
  const decision = await (
    known
      ? services.limiter
          .peek({ identity: `acct:${known.accountId}`, limits: known.limits, endpoints: group ? [group] : undefined })
          .then(observedDecision)
      : peekAnonymous(services, ip)
  ).catch(() => null);
  if (decision) setHeaders(res, decision);
  if (!res.headersSent) res.setHeader("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
  return { principal: null, decision, error: new ApiError("service_unavailable", SERVICE_UNAVAILABLE_MESSAGE) };
}

/** Windows read without counting, as a decision for the headers: the binding one has the fewest left. */
function observedDecision(windows: WindowState[]): Decision {
  const binding = bindingWindow(windows);
  // the instant the store read them, on its clock like every window's reset
  return { allowed: true, windows, binding, degraded: false, decidedAt: binding.reset - binding.resetInMs };
}

/** The address's anonymous windows read without counting, named as in every header ("ip:…"). */
async function peekAnonymous(services: Services, ip: string): Promise<Decision> {
  return anonymousDecision(observedDecision(await services.limiter.peek({ identity: `ip:${ip}`, limits: ANONYMOUS_LIMITS })));
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

/** Counts a request without a valid key in its address's anonymous windows ("ip:burst", "ip:minute", "ip:day"). */
async function decideAnonymous(services: Services, ip: string): Promise<Decision> {
  return anonymousDecision(await timed(services, () => services.limiter.decide({ identity: `ip:${ip}`, limits: ANONYMOUS_LIMITS })));
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

function setHeaders(res: GateResponse, decision: Decision) {
  // A request answered early (e.g. its body timed out while the gate was deciding) keeps that answer.
  if (res.headersSent) return;
  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
}

function refuse(services: Services, res: GateResponse, principal: Principal | null, decision: Decision): GateResult {
  setHeaders(res, decision);
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
