// The gate every /v1 and /trpc request passes: authenticate, decide every window, set the headers.
import type { IncomingMessage, ServerResponse } from "node:http";
import { ANONYMOUS_LIMITS, rateLimitExceededBody, rateLimitHeaders, type Decision, type EndpointGroup } from "@fiskal/limits";
import { ApiError, docUrl } from "../errors.ts";
import { AUTH_MESSAGES } from "../auth.ts";
import type { Services } from "../services.ts";
import type { Principal } from "../trpc.ts";

export interface GateResult {
  principal: Principal | null;
  decision: Decision;
  /** 401 or 429 to answer with; null when the request may proceed. */
  error: ApiError | null;
}

export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "unknown";
}

export async function runGate(
  services: Services,
  req: IncomingMessage,
  res: ServerResponse,
  opts: { group?: EndpointGroup; requireAuth: boolean; free?: boolean },
): Promise<GateResult> {
  const auth = await services.auth.authenticate(req.headers.authorization);
  const principal = auth.kind === "valid" ? auth.principal : null;
  const started = performance.now();
  const decision = principal && opts.free
    ? await peekDecision(services, principal)
    : principal
    ? await services.limiter.decide({ identity: `acct:${principal.accountId}`, limits: principal.limits, endpoint: opts.group })
    : await services.limiter.decide({ identity: `ip:${clientIp(req, services.trustProxy)}`, limits: ANONYMOUS_LIMITS });
  const { metrics } = services;
  metrics.decisionDuration.observe((performance.now() - started) / 1000);
  metrics.decisions.inc({
    outcome: decision.allowed ? "admitted" : "refused",
    window: decision.allowed ? "" : decision.binding.name,
    degraded: decision.degraded ? "1" : "0",
  });

  for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);

  if (!decision.allowed) {
    const body = rateLimitExceededBody(decision, docUrl(services.portalUrl, "rate_limit_exceeded"));
    return { principal, decision, error: new ApiError("rate_limit_exceeded", body.error.message) };
  }
  if (principal) {
    const day = decision.windows.find((w) => w.name === "day");
    if (day && services.warnings) {
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
}

/** For free status calls: the same windows and headers, without consuming anything. */
async function peekDecision(services: Services, principal: Principal): Promise<Decision> {
  const windows = await services.limiter.peek({ identity: `acct:${principal.accountId}`, limits: principal.limits });
  const binding = windows.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return { allowed: true, windows, binding, degraded: services.limiter.fallbackActive() };
}
