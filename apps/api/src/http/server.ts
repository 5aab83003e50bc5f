// The Node HTTP server: /v1 (REST routes declared with trpc-to-openapi metadata, dispatched through a
// tRPC caller), /trpc, the OpenAPI document, health and metrics. What never becomes a request (the
// parser rejected it, it timed out, CONNECT) is answered in ./client-errors.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { TRPCError } from "@trpc/server";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import { appRouter } from "../router.ts";
import { ENV_DEFAULTS } from "../env.ts";
import { ApiError, describeError, envelope, ERROR_STATUS, INTERNAL_MESSAGE, SERVICE_UNAVAILABLE_RETRY_AFTER_S, setProcessPortalUrl } from "../errors.ts";
import type { RateRecord } from "@fiskal/usage";
import type { Services } from "../services.ts";
import { createCallerFactory, type Context } from "../trpc.ts";
import { buildRouteTable, type RouteInfo } from "./routes.ts";
import { clientIp, decidePerIp, runGate, type GateResult } from "./gate.ts";
import { isJsonContentType, MAX_BODY_BYTES, readJsonBody } from "./body.ts";
import { buildOpenApiDocument } from "../openapi.ts";
import { applySecurityHeaders, securityHeaders, type SecurityHeaderOptions } from "./security-headers.ts";
import { answerClientErrors, MALFORMED_LABEL } from "./client-errors.ts";

const routes = buildRouteTable(appRouter);
const createCaller = createCallerFactory(appRouter);

// Unique per process start plus a counter: cheap, and unique across instances.
const idPrefix = "req_" + randomBytes(6).toString("base64url");
let idCounter = 0;
function newRequestId(): string {
  return idPrefix + (idCounter++).toString(36).padStart(6, "0");
}

interface Exchange {
  services: Services;
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  started: number;
  label: string;
  gate: GateResult | null;
  /** The gate's decision while it is being taken. */
  gating?: Promise<GateResult>;
}

/** Runs the gate for the exchange; an early answer (failEarly) waits for it instead of deciding again. */
function gate(ex: Exchange, opts: Parameters<typeof runGate>[3]): Promise<GateResult> {
  ex.gating = runGate(ex.services, ex.req, ex.res, opts);
  return ex.gating;
}

/** Limits of the HTTP listener; defaults in env.ts (ENV_DEFAULTS). */
export interface HttpServerOptions {
  /** Connections held at once; a connection beyond it is closed on arrival. */
  maxConnections?: number;
  /** Time from a request's first byte until its headers are complete. */
  headersTimeoutMs?: number;
  /** Time from a request's first byte until it is complete, body included. */
  requestTimeoutMs?: number;
}

const HTTP_DEFAULTS = {
  maxConnections: ENV_DEFAULTS.HTTP_MAX_CONNECTIONS,
  headersTimeoutMs: ENV_DEFAULTS.HTTP_HEADERS_TIMEOUT_MS,
  requestTimeoutMs: ENV_DEFAULTS.HTTP_REQUEST_TIMEOUT_MS,
  /** An idle keep-alive connection is kept this long (longer than the usual load balancer's 60 s). */
  keepAliveTimeoutMs: 65_000,
} as const;

/** Responses answered early (a malformed or stalled body): whatever the handler writes later is dropped. */
const superseded = new WeakSet<ServerResponse>();

export function createApiServer(services: Services, opts: SecurityHeaderOptions & { apiUrl: () => string; http?: HttpServerOptions }): Server {
  let openApiJson: string | null = null;
  const openApi = () => (openApiJson ??= JSON.stringify(buildOpenApiDocument(opts.apiUrl())));
  setProcessPortalUrl(services.portalUrl);
  const requestTimeout = opts.http?.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request timeout.
  const headersTimeout = Math.min(opts.http?.headersTimeoutMs ?? HTTP_DEFAULTS.headersTimeoutMs, requestTimeout);
  // The latest request dispatched on each connection, for answering a body that fails mid-way.
  const current = new WeakMap<Socket, Exchange>();

  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // How often Node looks for requests past their timeout: a stalled request is answered at most this late.
      connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(requestTimeout / 4))),
      // A missing Host is answered below, in the envelope, instead of by Node with a bare 400.
      requireHostHeader: false,
    },
    (req, res) => {
      const ex: Exchange = {
        services,
        req,
        res,
        requestId: newRequestId(),
        started: performance.now(),
        label: "unmatched",
        gate: null,
      };
      current.set(req.socket, ex);
      res.setHeader("X-Request-Id", ex.requestId);
      applySecurityHeaders(res, opts);
      // "close" fires whether the response completed or the client went away first.
      res.once("close", () => finish(ex));
      handle(ex, openApi).catch((err: unknown) => {
        if (superseded.has(res)) return;
        services.log.error({ err, requestId: ex.requestId }, "unhandled error");
        if (!res.headersSent) writeError(ex, new ApiError("internal_error", INTERNAL_MESSAGE));
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = HTTP_DEFAULTS.keepAliveTimeoutMs;
  server.maxConnections = opts.http?.maxConnections ?? HTTP_DEFAULTS.maxConnections;
  server.on("drop", () => services.metrics.connectionsDropped.inc());
  // An Expect other than 100-continue would get a bare 417 from Node: it is ignored instead.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
  answerClientErrors(server, {
    services,
    newRequestId,
    extraHeaders: () => securityHeaders(opts),
    timeouts: { headersMs: headersTimeout, requestMs: requestTimeout },
    allowedMethods: (pathname) => {
      const match = routes.matchRest("", pathname);
      return match && "allowed" in match ? match.allowed : null;
    },
    inFlight: (socket) => {
      const ex = current.get(socket);
      return ex && { req: ex.req, res: ex.res, fail: (err, headers) => void failEarly(ex, err, headers) };
    },
  });
  return server;
}

/**
 * Answers a request that is still being handled with `err` — its body was malformed or did not
 * arrive in time — and closes the connection. The rate-limit headers are the gate's (waited for if
 * it is still deciding), else a per-IP decision's.
 */
async function failEarly(ex: Exchange, err: ApiError, headers: Record<string, string> = {}) {
  const { res, services } = ex;
  superseded.add(res);
  // The gate sets its headers even on a response answered early; it is not decided twice.
  if (ex.gating) await ex.gating.catch(() => null);
  if (!res.hasHeader("X-RateLimit-Limit")) {
    const perIp = await decidePerIp(services, clientIp(ex.req, services.trustProxyHops), ex.requestId);
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(perIp.headers)) res.setHeader(k, v);
  }
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader("Connection", "close");
  writeJson(res, ERROR_STATUS[err.code], envelope(services.portalUrl, err.code, err.message, err.details), true);
}

/**
 * The request target as origin-form: an absolute-form target (`GET http://host/v1/limits`) is
 * routed by its path and query, exactly like `GET /v1/limits`. Anything else is left as it came.
 */
function originForm(target: string): string {
  if (target.startsWith("/")) return target;
  const m = /^https?:\/\/[^/?#]*(.*)$/i.exec(target);
  if (!m) return target;
  const rest = m[1]!;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

async function handle(ex: Exchange, openApi: () => string) {
  const { req, res, services } = ex;
  const url = originForm(req.url ?? "/");
  // Everything downstream (the tRPC adapter included) reads the same origin-form target.
  req.url = url;
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? "GET";

  if (req.httpVersion === "1.1" && req.headers.host === undefined) {
    // RFC 9112 §3.2: a 400 — in the envelope, with the address's rate-limit headers.
    ex.label = MALFORMED_LABEL;
    const perIp = await decidePerIp(services, clientIp(req, services.trustProxyHops), ex.requestId);
    for (const [k, v] of Object.entries(perIp.headers)) res.setHeader(k, v);
    res.setHeader("Connection", "close");
    return writeError(ex, perIp.refused ?? new ApiError("malformed_request", "Zahtjev HTTP/1.1 mora imati zaglavlje Host.", { reason: "missing_host" }));
  }

  if (pathname === "/healthz") return writeJson(res, 200, { status: "ok" });
  if (pathname === "/readyz") return readiness(ex);
  if (pathname === "/metrics") {
    services.metrics.storeDegraded.set(services.limiter.fallbackActive() ? 1 : 0);
    services.metrics.meterBuffered.set(services.meter.buffered);
    services.metrics.meterDropped.set(services.meter.dropped);
    res.setHeader("Content-Type", services.metrics.registry.contentType);
    return void res.end(await services.metrics.registry.metrics());
  }

  if (pathname === "/v1/openapi.json" && (method === "GET" || method === "HEAD")) {
    ex.label = "GET /v1/openapi.json";
    ex.gate = await gate(ex, { requireAuth: false });
    if (ex.gate.error) return writeError(ex, ex.gate.error);
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Cache-Control", "public, max-age=300");
    return void res.end(method === "HEAD" ? undefined : openApi());
  }

  if (pathname.startsWith("/trpc/")) return handleTrpc(ex, pathname.slice("/trpc/".length));
  if (pathname !== "/v1" && !pathname.startsWith("/v1/")) {
    // Outside the API too, every answer carries the rate-limit headers: a decision like any other.
    ex.gate = await gate(ex, { requireAuth: false });
    if (ex.gate.error) return writeError(ex, ex.gate.error);
    return writeError(ex, new ApiError("not_found", "Ne postoji takva ruta. API je pod /v1/, tRPC pod /trpc/."));
  }

  // HEAD is answered like GET; Node leaves out the body.
  const match = routes.matchRest(method === "HEAD" ? "GET" : method, pathname);
  const route: RouteInfo | null = match && "route" in match ? match.route : null;
  const params = match && "params" in match ? match.params : {};
  ex.label = route?.label ?? `${method} unmatched`;
  ex.gate = await gate(ex, { group: route?.group, requireAuth: true, statusLimits: route?.statusLimits });
  if (ex.gate.error) return writeError(ex, ex.gate.error);
  if (!route) {
    if (match && "allowed" in match) {
      res.setHeader("Allow", match.allowed.join(", "));
      return writeError(ex, new ApiError("method_not_allowed", `Metoda ${method} nije podržana na ${pathname}.`, { allowed: match.allowed }));
    }
    return writeError(ex, new ApiError("not_found", `Ne postoji ruta ${method} ${pathname}.`));
  }

  let input: unknown;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    if (!isJsonContentType(req.headers["content-type"])) {
      return writeError(ex, new ApiError("unsupported_media_type", "Tijelo zahtjeva mora biti JSON (Content-Type: application/json)."));
    }
    try {
      input = await readJsonBody(req);
    } catch (err) {
      if (err instanceof ApiError) return writeError(ex, err);
      throw err;
    }
    if (Object.keys(params).length && input && typeof input === "object" && !Array.isArray(input)) input = { ...input, ...params };
  } else {
    input = { ...queryObject(url, q), ...params };
  }
  await callProcedure(ex, route, input, route.etag?.(services, url));
}

/**
 * REST calls go straight to the procedure through a tRPC caller: the same middleware, validation
 * and output schemas as /trpc, and the routes trpc-to-openapi documents. (Its node handler builds a
 * fetch Request per call only to derive an AbortSignal, which cost more than the rest of the call.)
 */
async function callProcedure(ex: Exchange, route: RouteInfo, input: unknown, etag?: string) {
  const caller = createCaller(context(ex)) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
  const [ns, name] = route.procedure.split(".") as [string, string];
  let data: unknown;
  try {
    data = await caller[ns]![name]!(input);
  } catch (err) {
    const trpcError = err instanceof TRPCError ? err : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: err });
    const described = describeError(trpcError);
    if (described.code === "internal_error") {
      ex.services.log.error({ err: trpcError.cause ?? trpcError, requestId: ex.requestId, route: route.label }, "procedure failed");
    }
    return writeError(ex, new ApiError(described.code, described.message, described.details));
  }
  if (etag) {
    // Only a successful answer is cacheable; a matching If-None-Match then confirms it with 304.
    ex.res.setHeader("ETag", etag);
    ex.res.setHeader("Cache-Control", "private, max-age=3600");
    if (etagMatches(ex.req.headers["if-none-match"], etag)) {
      if (ex.res.headersSent || superseded.has(ex.res)) return;
      ex.res.statusCode = 304;
      return void ex.res.end();
    }
  }
  writeJson(ex.res, 200, data);
}

function queryObject(url: string, q: number): Record<string, string> {
  const out: Record<string, string> = {};
  if (q === -1) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) if (!(k in out)) out[k] = v;
  return out;
}

async function handleTrpc(ex: Exchange, path: string) {
  const { req, res } = ex;
  const route = routes.byProcedure(path);
  ex.label = route?.label ?? "trpc unmatched";
  ex.gate = await gate(ex, { group: route?.group, requireAuth: true, statusLimits: route?.statusLimits });
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "POST") {
    // tRPC takes queries as GET and mutations as POST; it cannot even represent TRACE (the fetch
    // Request it builds refuses it), so every other method is answered here.
    const allowed = route ? [route.trpcMethod] : ["GET", "POST"];
    res.setHeader("Allow", allowed.join(", "));
    const error = ex.gate.error ?? new ApiError("method_not_allowed", `Metoda ${method} nije podržana na /trpc/${path}.`, { allowed });
    return writeTrpcError(ex, path, error);
  }
  const ctx = context(ex);
  await nodeHTTPRequestHandler({
    router: appRouter,
    req,
    res,
    path,
    allowBatching: false,
    maxBodySize: MAX_BODY_BYTES,
    createContext: () => ctx,
  });
}

/** An error in tRPC's own response shape (code, message and doc_url in error.data), as tRPC would send it. */
function writeTrpcError(ex: Exchange, path: string, err: ApiError) {
  const shape = getErrorShape({ config: appRouter._def._config, error: err.toTRPC(), type: "unknown", path, input: undefined, ctx: context(ex) });
  writeJson(ex.res, ERROR_STATUS[err.code], { error: shape });
}

/**
 * The services as a procedure sees them: the same objects, except that `log` is a child logger
 * carrying the request id, so every line a procedure logs names its request. Made on first use.
 */
function requestServices(ex: Exchange): Services {
  let log: Services["log"] | undefined;
  return Object.create(ex.services, {
    log: { get: () => (log ??= ex.services.log.child({ requestId: ex.requestId })), enumerable: true },
  }) as Services;
}

function context(ex: Exchange): Context {
  return {
    services: requestServices(ex),
    req: ex.req,
    res: ex.res,
    requestId: ex.requestId,
    principal: ex.gate?.error ? null : (ex.gate?.principal ?? null),
    gateError: ex.gate?.error ?? null,
    decision: ex.gate?.decision ?? null,
  };
}

function etagMatches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(",").some((t) => t.trim() === tag || t.trim() === "*");
}

function writeError(ex: Pick<Exchange, "res" | "services">, err: ApiError) {
  const { res } = ex;
  if (res.headersSent || superseded.has(res)) return;
  for (const [k, v] of Object.entries(err.headers ?? {})) res.setHeader(k, v);
  if (err.code === "service_unavailable" && !res.hasHeader("Retry-After")) res.setHeader("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
  writeJson(res, ERROR_STATUS[err.code], envelope(ex.services.portalUrl, err.code, err.message, err.details));
}

/** `force` writes even a response answered early (that early answer itself). */
function writeJson(res: ServerResponse, status: number, body: unknown, force = false) {
  if (res.headersSent || (superseded.has(res) && !force)) return;
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.end(JSON.stringify(body));
}

async function readiness(ex: Exchange) {
  const { services, res } = ex;
  const checks: Record<string, string> = {};
  try {
    await services.db.$queryRawUnsafe("SELECT 1");
    checks.database = "ok";
  } catch (err) {
    services.log.error({ err, requestId: ex.requestId }, "readiness: database unreachable");
    checks.database = "unreachable";
  }
  checks.limiter = services.limiter.fallbackActive() ? "degraded (local fallback)" : `ok (${services.limiter.store})`;
  const ok = checks.database === "ok";
  writeJson(res, ok ? 200 : 503, { status: ok ? "ready" : "not_ready", checks });
}

function finish(ex: Exchange) {
  const { services, res, gate } = ex;
  const durationMs = performance.now() - ex.started;
  // 499 (client closed request) when the client left before the response was complete.
  const status = res.writableFinished ? res.statusCode : 499;
  services.metrics.httpRequests.inc({ route: ex.label, status: String(status) });
  services.metrics.httpDuration.observe({ route: ex.label }, durationMs / 1000);
  const principal = gate?.principal;
  if (principal) {
    services.meter.record({
      accountId: principal.accountId,
      apiKeyId: principal.apiKeyId,
      requestId: ex.requestId,
      method: ex.req.method ?? "GET",
      endpoint: ex.label,
      status,
      durationMs,
      refused: status === 429,
      at: new Date(),
      rate: gate.decision ? rateRecord(gate.decision, res) : null,
    });
  }
  if (status >= 500) services.log.error({ requestId: ex.requestId, route: ex.label, status }, "request failed");
  else if (services.log.isLevelEnabled("debug")) {
    services.log.debug({ requestId: ex.requestId, route: ex.label, status, ms: Math.round(durationMs * 100) / 100 }, "request");
  }
}

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "Retry-After"];

/** The decision and the rate-limit headers the response carried, for the portal's request log. */
function rateRecord(decision: NonNullable<GateResult["decision"]>, res: ServerResponse): RateRecord {
  const headers: Record<string, string> = {};
  for (const name of RATE_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return {
    window: decision.binding.policy,
    limit: decision.binding.limit,
    remaining: decision.binding.remaining,
    retryAfter: decision.allowed ? null : (decision.retryAfterSeconds ?? null),
    headers,
  };
}
