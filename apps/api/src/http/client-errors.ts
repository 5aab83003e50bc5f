// Requests that never reach the request handler — what Node's HTTP parser rejects (unknown methods,
// CR/LF/NUL in headers, obs-fold, ambiguous body length, headers or URL over 16 KB…), requests not
// complete within the headers/request timeout, and CONNECT — are answered like every other error:
// the JSON envelope, X-Request-Id, the security headers, the per-IP rate-limit headers (a decision
// for the peer address, counted like any unauthenticated request) and `Connection: close`.
//
// Node hands such a socket to the 'clientError' listener with no request or response object, so the
// answer is written to the socket directly. When the error concerns a request already being handled
// (its body was malformed or stalled), that request's own response carries the answer instead.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError, ERROR_STATUS, envelope } from "../errors.ts";
import type { Services } from "../services.ts";
import { clientIp, decidePerIp } from "./gate.ts";

/** The metrics label of requests answered here. */
export const MALFORMED_LABEL = "malformed request";

interface InFlight {
  req: IncomingMessage;
  res: ServerResponse;
  /** Answers the request being handled with `err` (Connection: close); later writes are ignored. */
  fail(err: ApiError, headers?: Record<string, string>): void;
}

export interface ClientErrorDeps {
  services: Services;
  newRequestId(): string;
  /** Header pairs every answer carries (the security headers). */
  extraHeaders(): [string, string][];
  /** The request most recently dispatched on this socket, if it is still known. */
  inFlight(socket: Socket): InFlight | undefined;
  /** Methods a path answers to, for Allow; null when no route has this path. */
  allowedMethods(pathname: string): string[] | null;
  timeouts: { headersMs: number; requestMs: number };
}

type ParserError = Error & { code?: string; rawPacket?: Buffer; bytesParsed?: number };

/**
 * The first line of the message the parser failed on. `rawPacket` is the whole chunk it was given,
 * which may begin with earlier, complete requests (or with a body sent without a length), so the
 * message starts after the last blank line before the failure. A message that began in an earlier
 * chunk is not visible: then this is whatever the chunk starts with.
 */
function failingLine(err: ParserError): string {
  const raw = err.rawPacket ?? Buffer.alloc(0);
  const at = Math.min(Math.max(err.bytesParsed ?? 0, 0), raw.length);
  const blank = at === 0 ? -1 : raw.lastIndexOf("\r\n\r\n", at - 1, "latin1");
  const start = blank === -1 ? 0 : blank + 4;
  const end = raw.indexOf(0x0a, start);
  return raw.subarray(start, end === -1 ? Math.min(raw.length, start + 4_096) : end).toString("latin1");
}

/** The methods the API uses, for Allow when the path says nothing more precise. */
const API_METHODS = ["GET", "HEAD", "POST"];
const TOKEN_METHOD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S{1,2048})/;

export function answerClientErrors(server: Server, deps: ClientErrorDeps): void {
  const { services } = deps;
  // The parser repeats its error for every later chunk on a socket: answer once.
  const answered = new WeakSet<Socket>();

  server.on("clientError", (err: ParserError, socket: Socket) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const code = err.code ?? "UNKNOWN";
    services.metrics.clientErrors.inc({ code });
    if (code === "ECONNRESET" || code === "EPIPE" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { error, headers } = describeParserError(err, deps);
    services.log.debug({ code, status: ERROR_STATUS[error.code] }, "malformed request answered");
    const current = deps.inFlight(socket);
    if (current && !current.req.complete) {
      // The error concerns the request being handled: its body was malformed or did not arrive in time.
      if (current.res.headersSent) closeAfter(current.res, socket);
      else current.fail(error, headers);
      return;
    }
    // The socket is ours to answer and close. Node ends its side as soon as the client half-closes
    // (FIN right after the bad request line), before the per-IP decision lets us write: that
    // handler goes, so a client that half-closes gets the same answer as one that waits.
    socket.removeAllListeners("end");
    // A HEAD request gets the status and headers only, as always.
    const head = failingLine(err).startsWith("HEAD ");
    const write = () => void answerOnSocket(deps, socket, socket.remoteAddress ?? "unknown", error, headers, head);
    // A request pipelined behind one still being answered: answer in order, after it.
    if (current && !current.res.writableFinished) current.res.once("close", write);
    else write();
  });

  // CONNECT has its own event; without a listener Node closes the connection without a word.
  server.on("connect", (req: IncomingMessage, socket: Socket) => {
    socket.on("error", () => {});
    services.metrics.clientErrors.inc({ code: "CONNECT" });
    const error = new ApiError("method_not_allowed", "Metoda CONNECT nije podržana: ovo je API, ne posrednik (proxy).", { allowed: API_METHODS });
    void answerOnSocket(deps, socket, clientIp(req, services.trustProxyHops), error, { Allow: API_METHODS.join(", ") });
  });
}

function closeAfter(res: ServerResponse, socket: Socket) {
  if (res.writableFinished) socket.destroy();
  else res.once("finish", () => socket.destroy());
}

/** The envelope for what the parser said; `headers` are extra response headers (Allow). */
function describeParserError(err: ParserError, deps: Pick<ClientErrorDeps, "allowedMethods" | "timeouts">): { error: ApiError; headers: Record<string, string> } {
  const code = err.code ?? "UNKNOWN";
  const details = { reason: code };
  const bad = (message: string) => ({ error: new ApiError("malformed_request", message, details), headers: {} });
  switch (code) {
    case "ERR_HTTP_REQUEST_TIMEOUT": {
      const s = (ms: number) => `${Math.round(ms / 100) / 10}`.replace(".", ",");
      return {
        error: new ApiError(
          "request_timeout",
          `Zahtjev nije stigao na vrijeme: zaglavlja moraju stići u ${s(deps.timeouts.headersMs)} s, a cijeli zahtjev s tijelom u ${s(deps.timeouts.requestMs)} s. Tijelo ne smije biti kraće od Content-Length.`,
          details,
        ),
        headers: {},
      };
    }
    case "HPE_HEADER_OVERFLOW":
      return { error: new ApiError("headers_too_large", "Zaglavlja zahtjeva zajedno s adresom (URL) veća su od 16 KB.", details), headers: {} };
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return { error: new ApiError("payload_too_large", "Proširenja dijelova tijela (chunk extensions) preduga su.", details), headers: {} };
    case "HPE_INVALID_METHOD": {
      const m = TOKEN_METHOD.exec(failingLine(err));
      if (!m) return bad("Zahtjev nije HTTP/1.1 zahtjev (npr. TLS na adresi bez TLS-a).");
      const target = m[2]!;
      const pathname = target.startsWith("/") ? target.split("?")[0]! : null;
      const allowed = (pathname && deps.allowedMethods(pathname)) || API_METHODS;
      return {
        error: new ApiError("method_not_allowed", `Metoda ${m[1]} nije podržana (metode se pišu velikim slovima).`, { ...details, allowed }),
        headers: { Allow: allowed.join(", ") },
      };
    }
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_LF_EXPECTED":
    case "HPE_CR_EXPECTED":
    case "HPE_INVALID_HEADER":
      return bad("Zaglavlje zahtjeva nije ispravno: nedopušten znak (CR, LF, NUL), preklopljeni redak (obs-fold) ili redak bez dvotočke.");
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return bad("Duljina tijela nije jednoznačna: neispravan Content-Length, više različitih vrijednosti, Content-Length uz Transfer-Encoding ili kodiranje koje nije chunked.");
    case "HPE_INVALID_CHUNK_SIZE":
    case "HPE_STRICT":
    case "HPE_INVALID_EOF_STATE":
      return bad("Tijelo poslano u dijelovima (chunked) nije ispravno.");
    case "HPE_INVALID_URL":
      return bad("Adresa zahtjeva sadrži nedopuštene znakove; kodirajte ih (%XX).");
    case "HPE_INVALID_VERSION":
    case "HPE_PAUSED_H2_UPGRADE":
      return bad("Podržani su HTTP/1.1 i HTTP/1.0 (HTTP/2 bez TLS-a nije).");
    default:
      return bad("Zahtjev nije ispravan HTTP zahtjev.");
  }
}

/** A per-IP decision for `ip`, then the whole answer written to the socket, which is then closed. */
async function answerOnSocket(deps: ClientErrorDeps, socket: Socket, ip: string, error: ApiError, extra: Record<string, string>, head = false): Promise<void> {
  const { services } = deps;
  const requestId = deps.newRequestId();
  const { headers: rateHeaders, refused } = await decidePerIp(services, ip, requestId);
  const answer = refused ?? error;
  const status = ERROR_STATUS[answer.code];
  services.metrics.httpRequests.inc({ route: MALFORMED_LABEL, status: String(status) });
  if (socket.destroyed || !socket.writable) return;
  const body = Buffer.from(JSON.stringify(envelope(services.portalUrl, answer.code, answer.message, answer.details)));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}`,
    `Date: ${new Date().toUTCString()}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${body.length}`,
    `X-Request-Id: ${requestId}`,
    ...deps.extraHeaders().map(([k, v]) => `${k}: ${v}`),
    ...Object.entries(rateHeaders).map(([k, v]) => `${k}: ${v}`),
    ...(refused ? [] : Object.entries(extra).map(([k, v]) => `${k}: ${v}`)),
    "Connection: close",
  ];
  socket.end(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), head ? Buffer.alloc(0) : body]));
  // Keep reading until the client closes, so that unread bytes do not turn our answer into a reset.
  const timer = setTimeout(() => socket.destroy(), 2_000);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.resume();
}
