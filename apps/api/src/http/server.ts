// The Node HTTP server: /v1 (REST routes declared with trpc-to-openapi metadata, each running its
// procedure directly: trpc.ts `directCall`), /trpc, the OpenAPI document, health and metrics. What
// never becomes a request (the parser rejected it, it timed out, CONNECT) is answered in
// ./client-errors.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { randomBytes } from "node:crypto";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { TRPCError } from "@trpc/server";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import { appRouter } from "../router.ts";
import { ENV_DEFAULTS, VALIDATE_OUTPUT } from "../env.ts";
import { ApiError, describeError, envelope, ERROR_STATUS, INTERNAL_MESSAGE, SERVICE_UNAVAILABLE_RETRY_AFTER_S, withPortalUrl } from "../errors.ts";
import type { RateRecord } from "@fiskal/usage";
import type { Services } from "../services.ts";
import { createCallerFactory, directCall, type Context, type DirectCall, type Download } from "../trpc.ts";
import { buildRouteTable, procedureMetas, type RouteInfo } from "./routes.ts";
import { clientIp, decidePerIp, runGate, type GateResult } from "./gate.ts";
import { isJsonContentType, MAX_BODY_BYTES, readJsonBody, readTrpcBody } from "./body.ts";
import { buildOpenApiDocument } from "../openapi.ts";
import { applySecurityHeaders, securityHeaders, type SecurityHeaderOptions } from "./security-headers.ts";
import { answerClientErrors, MALFORMED_LABEL } from "./client-errors.ts";
import { handleExpectations, refuseHeaders } from "./request-checks.ts";
import { databaseReady } from "./readiness.ts";

const routes = buildRouteTable(appRouter);
const createCaller = createCallerFactory(appRouter);
/** Each REST route's procedure as the REST path calls it, built once; null: through a tRPC caller. */
const directCalls = new Map<string, DirectCall | null>(
  procedureMetas(appRouter)
    .filter(([path]) => routes.byProcedure(path))
    .map(([path, , , procedure]) => [path, directCall(procedure, path, { validateOutput: VALIDATE_OUTPUT })]),
);

/**
 * A response's header block: everything the handling of a request sets (request id, security
 * headers, the gate's rate-limit headers, a procedure's own) is collected here, in order, and
 * written with the status in one `writeHead`, instead of one `setHeader` each on the response.
 * Names are matched without regard to case, as on a ServerResponse. The gate and the procedures
 * see it as the response: it has the `headersSent`, `setHeader`, `getHeader` and `hasHeader` they use.
 */
/** Lower-cased header names, made once per name rather than once per response. */
const lowerNames = new Map<string, string>();
function lower(name: string): string {
  let l = lowerNames.get(name);
  if (l === undefined) {
    l = name.toLowerCase();
    // Names come from the code, not from clients; the bound only guards against a surprise.
    if (lowerNames.size < 256) lowerNames.set(name, l);
  }
  return l;
}

class HeaderBlock {
  /** name, value, name, value, … as writeHead takes them. */
  readonly flat: string[] = [];
  /** The lower-cased names, at half the index of their pair in `flat`. */
  readonly #keys: string[] = [];
  constructor(readonly res: ServerResponse) {}

  get headersSent(): boolean {
    return this.res.headersSent;
  }
  setHeader(name: string, value: string | number | readonly string[]): this {
    const text = typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : String(value);
    const key = lower(name);
    const i = this.#keys.indexOf(key);
    if (i === -1) {
      this.#keys.push(key);
      this.flat.push(name, text);
    } else this.flat[2 * i + 1] = text;
    return this;
  }
  getHeader(name: string): string | undefined {
    const i = this.#keys.indexOf(lower(name));
    return i === -1 ? undefined : this.flat[2 * i + 1];
  }
  hasHeader(name: string): boolean {
    return this.#keys.includes(lower(name));
  }
  /** For a response another writer completes (tRPC's adapter): the block as setHeader calls. */
  applyTo(res: ServerResponse): void {
    for (let i = 0; i < this.flat.length; i += 2) res.setHeader(this.flat[i]!, this.flat[i + 1]!);
  }
}

// Unique per server start plus a counter: cheap, and unique across instances (each server has its own).
function requestIds(): () => string {
  const idPrefix = "req_" + randomBytes(6).toString("base64url");
  let idCounter = 0;
  return () => idPrefix + (idCounter++).toString(36).padStart(6, "0");
}

interface Exchange {
  services: Services;
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** The response's headers until they are written. */
  headers: HeaderBlock;
  started: number;
  label: string;
  gate: GateResult | null;
  /** The gate's decision while it is being taken. */
  gating?: Promise<GateResult>;
}

/** Runs the gate for the exchange; an early answer (failEarly) waits for it instead of deciding again. */
function gate(ex: Exchange, opts: Parameters<typeof runGate>[3]): Promise<GateResult> {
  // The gate sets and reads headers only: it gets the block, which stands in for the response.
  ex.gating = runGate(ex.services, ex.req, ex.headers, opts);
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
  const newRequestId = requestIds();
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
        headers: new HeaderBlock(res),
        started: performance.now(),
        label: "unmatched",
        gate: null,
      };
      current.set(req.socket, ex);
      ex.headers.setHeader("X-Request-Id", ex.requestId);
      applySecurityHeaders(ex.headers, opts);
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
  // Every Expect reaches the handler, which refuses all but 100-continue in the envelope (request-checks.ts).
  handleExpectations(server);
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
  if (!ex.headers.hasHeader("X-RateLimit-Limit")) {
    const perIp = await decidePerIp(services, clientIp(ex.req, services.trustProxyHops), ex.requestId);
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(perIp.headers)) ex.headers.setHeader(k, v);
  }
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(headers)) ex.headers.setHeader(k, v);
  ex.headers.setHeader("Connection", "close");
  writeJson(ex, ERROR_STATUS[err.code], envelope(services.portalUrl, err.code, err.message, err.details), true);
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
  const { req, services } = ex;
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
    for (const [k, v] of Object.entries(perIp.headers)) ex.headers.setHeader(k, v);
    ex.headers.setHeader("Connection", "close");
    return writeError(ex, perIp.refused ?? new ApiError("malformed_request", "Zahtjev HTTP/1.1 mora imati zaglavlje Host.", { reason: "missing_host" }));
  }
  const refused = refuseHeaders(services, req, ex.requestId);
  if (refused) {
    // A repeated Host or Content-Type, an Expect other than 100-continue: 400 or 417 in the envelope.
    ex.label = MALFORMED_LABEL;
    const { error, headers } = await refused;
    for (const [k, v] of Object.entries(headers)) ex.headers.setHeader(k, v);
    return writeError(ex, error);
  }

  if (pathname === "/healthz") return writeJson(ex, 200, { status: "ok" });
  if (pathname === "/readyz") return readiness(ex);
  if (pathname === "/metrics") {
    services.metrics.storeDegraded.set(services.limiter.fallbackActive() ? 1 : 0);
    services.metrics.meterBuffered.set(services.meter.buffered);
    services.metrics.meterDropped.set(services.meter.dropped);
    return writeBody(ex, 200, services.metrics.registry.contentType, await services.metrics.registry.metrics());
  }

  if (pathname === "/v1/openapi.json" && (method === "GET" || method === "HEAD")) {
    ex.label = "GET /v1/openapi.json";
    ex.gate = await gate(ex, { requireAuth: false });
    if (ex.gate.error) return writeError(ex, ex.gate.error);
    ex.headers.setHeader("Cache-Control", "public, max-age=300");
    return writeBody(ex, 200, "application/json", openApi());
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
      ex.headers.setHeader("Allow", match.allowed.join(", "));
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
 * A REST call runs its procedure directly (trpc.ts `directCall`: the gate's verdict, the same zod
 * schemas, the resolver), with the errors tRPC's caller would give; a procedure built otherwise
 * goes through a tRPC caller. Either way the answer is the one /trpc gives, in the REST envelope.
 */
async function callProcedure(ex: Exchange, route: RouteInfo, input: unknown, etag?: string) {
  let data: unknown;
  try {
    const direct = directCalls.get(route.procedure);
    if (direct) data = await direct(context(ex, ex.headers), input);
    else {
      // Named only at run time ("ns.name") and checked by its own input schema: no static caller type fits.
      const caller = createCaller(context(ex, ex.headers)) as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>;
      const [ns, name] = route.procedure.split(".") as [string, string];
      data = await caller[ns]![name]!(input);
    }
  } catch (err) {
    // An ApiError as the procedure threw it (its own headers included), anything else as tRPC describes it.
    if (err instanceof ApiError) return writeError(ex, err);
    const trpcError = err instanceof TRPCError ? err : new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: err });
    const described = describeError(trpcError);
    if (described.code === "internal_error") {
      ex.services.log.error({ err: trpcError.cause ?? trpcError, requestId: ex.requestId, route: route.label }, "procedure failed");
    }
    return writeError(ex, new ApiError(described.code, described.message, described.details));
  }
  if (route.download && ex.gate?.principal) return writeDownload(ex, route.download(ex.services, ex.gate.principal.accountId, data));
  if (etag) {
    // Only a successful answer is cacheable; a matching If-None-Match then confirms it with 304.
    ex.headers.setHeader("ETag", etag);
    ex.headers.setHeader("Cache-Control", "private, max-age=3600");
    if (etagMatches(ex.req.headers["if-none-match"], etag)) {
      if (ex.res.headersSent || superseded.has(ex.res)) return;
      ex.res.writeHead(304, ex.headers.flat);
      return void ex.res.end();
    }
  }
  writeJson(ex, 200, data);
}

/**
 * A download route's file, streamed with the header block (no Content-Length: chunked). A failure
 * before the first chunk is answered in the envelope; after it the connection is cut, so that the
 * client never takes a truncated file for a whole one.
 */
async function writeDownload(ex: Exchange, download: Download) {
  const { res, headers } = ex;
  const chunks = download.body[Symbol.asyncIterator]();
  let next: IteratorResult<Buffer>;
  try {
    next = await chunks.next();
  } catch (err) {
    if (err instanceof ApiError) return writeError(ex, err);
    ex.services.log.error({ err, requestId: ex.requestId, route: ex.label }, "download failed");
    return writeError(ex, new ApiError("internal_error", INTERNAL_MESSAGE));
  }
  if (res.headersSent || superseded.has(res)) return;
  headers.setHeader("Content-Type", download.contentType);
  headers.setHeader("Content-Disposition", `attachment; filename="${download.filename}"`);
  res.writeHead(200, headers.flat);
  try {
    while (!next.done && ex.req.method !== "HEAD") {
      if (!res.write(next.value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
      if (res.destroyed) return void (await chunks.return?.(undefined));
      next = await chunks.next();
    }
    if (!next.done) await chunks.return?.(undefined);
    res.end();
  } catch (err) {
    ex.services.log.error({ err, requestId: ex.requestId, route: ex.label }, "download failed mid-way");
    res.destroy();
  }
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
    ex.headers.setHeader("Allow", allowed.join(", "));
    const error = ex.gate.error ?? new ApiError("method_not_allowed", `Metoda ${method} nije podržana na /trpc/${path}.`, { allowed });
    return writeTrpcError(ex, path, error);
  }
  if (method === "POST" && !ex.gate.error && isJsonContentType(req.headers["content-type"])) {
    // Strict input on /trpc too: the body is checked like a REST body (body.ts), then handed to tRPC.
    try {
      (req as IncomingMessage & { body?: string }).body = await readTrpcBody(req);
    } catch (err) {
      if (err instanceof ApiError) return writeTrpcError(ex, path, err);
      throw err;
    }
  }
  // tRPC's adapter writes the response itself: it gets the headers collected so far as set headers.
  ex.headers.applyTo(res);
  const ctx = context(ex, res);
  // Only tRPC's adapter formats errors without a context (a refused content type or batch), so only
  // it runs with the portal in an AsyncLocalStorage: on Node 20 a store that has been entered keeps
  // a promise hook on every promise the process makes afterwards (an allocation and a callback
  // each), which the REST path, the hot one, does not need.
  await withPortalUrl(ex.services.portalUrl, () =>
    nodeHTTPRequestHandler({
      router: appRouter,
      req,
      res,
      path,
      allowBatching: false,
      maxBodySize: MAX_BODY_BYTES,
      createContext: () => ctx,
    }),
  );
}

/** An error in tRPC's own response shape (code, message and doc_url in error.data), as tRPC would send it. */
function writeTrpcError(ex: Exchange, path: string, err: ApiError) {
  const shape = getErrorShape({ config: appRouter._def._config, error: err.toTRPC(), type: "unknown", path, input: undefined, ctx: context(ex, ex.headers) });
  writeJson(ex, ERROR_STATUS[err.code], { error: shape });
}

const REQUEST_ID = Symbol("requestId");
const CHILD_LOG = Symbol("log");
type RequestServices = Services & { [REQUEST_ID]: string; [CHILD_LOG]?: Services["log"] };
/** Per Services object: the prototype of its per-request views (see requestServices). */
const requestViews = new WeakMap<Services, object>();

/**
 * The services as a procedure sees them: the same objects, except that `log` is a child logger
 * carrying the request id, so every line a procedure logs names its request. Made on first use.
 */
function requestServices(ex: Exchange): Services {
  let proto = requestViews.get(ex.services);
  if (!proto) {
    proto = Object.create(ex.services, {
      log: {
        get(this: RequestServices) {
          return (this[CHILD_LOG] ??= Object.getPrototypeOf(proto).log.child({ requestId: this[REQUEST_ID] }));
        },
        enumerable: true,
      },
    }) as object;
    requestViews.set(ex.services, proto);
  }
  const view = Object.create(proto) as RequestServices;
  view[REQUEST_ID] = ex.requestId;
  return view;
}

/** `res`: where a procedure's headers go, the header block or (on /trpc) the response tRPC writes. */
function context(ex: Exchange, res: Context["res"]): Context {
  return {
    services: requestServices(ex),
    req: ex.req,
    res,
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

function writeError(ex: Exchange, err: ApiError) {
  const { res, headers } = ex;
  if (res.headersSent || superseded.has(res)) return;
  if (err.headers) for (const [k, v] of Object.entries(err.headers)) headers.setHeader(k, v);
  if (err.code === "service_unavailable" && !headers.hasHeader("Retry-After")) headers.setHeader("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_S));
  writeJson(ex, ERROR_STATUS[err.code], envelope(ex.services.portalUrl, err.code, err.message, err.details));
}

/** `force` writes even a response answered early (that early answer itself). */
function writeJson(ex: Exchange, status: number, body: unknown, force = false) {
  writeBody(ex, status, "application/json; charset=utf-8", JSON.stringify(body), force);
}

/**
 * The status, the header block and the body in one go. Content-Length as Node would set it
 * (none on a HEAD answer, whose body Node leaves out).
 */
function writeBody(ex: Exchange, status: number, contentType: string, body: string, force = false) {
  const { res, headers } = ex;
  if (res.headersSent || (superseded.has(res) && !force)) return;
  headers.setHeader("Content-Type", contentType);
  if (ex.req.method !== "HEAD") headers.setHeader("Content-Length", Buffer.byteLength(body));
  try {
    // Node checks every name and value here, once (setHeader would have checked each when set).
    res.writeHead(status, headers.flat);
  } catch (err) {
    // A header value Node refuses is a bug of ours: a 500 with the bare minimum instead of a crash.
    ex.services.log.error({ err, requestId: ex.requestId }, "response headers refused");
    const envelopeText = JSON.stringify(envelope(ex.services.portalUrl, "internal_error", INTERNAL_MESSAGE));
    res.writeHead(500, ["X-Request-Id", ex.requestId, "Cache-Control", "no-store", "X-Content-Type-Options", "nosniff", "Content-Type", "application/json; charset=utf-8", "Content-Length", String(Buffer.byteLength(envelopeText))]);
    return void res.end(envelopeText);
  }
  res.end(body);
}

async function readiness(ex: Exchange) {
  const { services } = ex;
  const checks: Record<string, string> = {};
  // Within a second, also while the database hangs (readiness.ts).
  if (await databaseReady(services.db)) checks.database = "ok";
  else {
    services.log.error({ requestId: ex.requestId }, "readiness: the database did not answer");
    checks.database = "unreachable";
  }
  checks.limiter = services.limiter.fallbackActive() ? "degraded (local fallback)" : `ok (${services.limiter.store})`;
  const ok = checks.database === "ok";
  writeJson(ex, ok ? 200 : 503, { status: ok ? "ready" : "not_ready", checks });
}

function finish(ex: Exchange) {
  const { services, res, gate } = ex;
  const durationMs = performance.now() - ex.started;
  // 499 (client closed request) when the client left before the response was complete.
  const status = res.writableFinished ? res.statusCode : 499;
  services.metrics.httpRequests.inc({ route: ex.label, status: String(status) });
  services.metrics.httpDuration.observe({ route: ex.label }, durationMs / 1000);
  const principal = gate?.principal;
  // A 503 means nothing was done: never metered, whether the database failed before the gate or after it.
  if (principal && status !== 503) {
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
      rate: gate.decision ? rateRecord(gate.decision, ex.headers) : null,
    });
  }
  if (status >= 500) services.log.error({ requestId: ex.requestId, route: ex.label, status }, "request failed");
  else if (services.log.isLevelEnabled("debug")) {
    services.log.debug({ requestId: ex.requestId, route: ex.label, status, ms: Math.round(durationMs * 100) / 100 }, "request");
  }
}

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Policy", "RateLimit", "Retry-After"];

/** The decision and the rate-limit headers the response carried, for the portal's request log. */
function rateRecord(decision: NonNullable<GateResult["decision"]>, sent: HeaderBlock): RateRecord {
  const headers: Record<string, string> = {};
  for (const name of RATE_HEADERS) {
    const value = sent.getHeader(name);
    if (value !== undefined) headers[name] = value;
  }
  return {
    window: decision.binding.policy,
    limit: decision.binding.limit,
    remaining: decision.binding.remaining,
    retryAfter: decision.allowed ? null : (decision.retryAfterSeconds ?? null),
    headers,
  };
}
