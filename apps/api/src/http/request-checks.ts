// What Node's HTTP parser lets through but the API refuses before routing a request (RFC 9112 and
// "strict input"): a repeated Host (RFC 9112 §3.2: 400), a repeated Content-Type (which one would
// describe the body?), and an Expect other than 100-continue (RFC 9110 §10.1.1: 417). Each is
// answered in the envelope with the address's rate-limit headers, and the connection is closed.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { ApiError } from "../errors.ts";
import type { Services } from "../services.ts";
import { clientIp, decidePerIp } from "./gate.ts";

/** The refusal for the request's headers, or null when they are acceptable. */
function headerError(req: IncomingMessage): ApiError | null {
  const raw = req.rawHeaders;
  let host = 0;
  let contentType = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === "host") host++;
    else if (name.length === 12 && name.toLowerCase() === "content-type") contentType++;
  }
  if (host > 1) return new ApiError("malformed_request", "Zahtjev ima više zaglavlja Host; dopušteno je točno jedno.", { reason: "duplicate_host" });
  if (contentType > 1) {
    return new ApiError("malformed_request", "Zahtjev ima više zaglavlja Content-Type; dopušteno je najviše jedno.", { reason: "duplicate_content_type" });
  }
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== "100-continue") {
    return new ApiError("expectation_failed", "Zaglavlje Expect nije podržano; jedino poznato očekivanje je 100-continue.", { reason: "unsupported_expect" });
  }
  return null;
}

/**
 * Checks the request's headers. Null when the request may go on; else the error to answer with and
 * the response headers to send with it: the address's rate-limit headers (a per-IP decision, counted
 * like any unauthenticated request) and `Connection: close`.
 */
export function refuseHeaders(services: Services, req: IncomingMessage, requestId: string): Promise<{ error: ApiError; headers: Record<string, string> }> | null {
  const error = headerError(req);
  if (error === null) return null;
  return (async () => {
    const perIp = await decidePerIp(services, clientIp(req, services.trustProxyHops), requestId);
    return { error: perIp.refused ?? error, headers: { ...perIp.headers, Connection: "close" } };
  })();
}

/**
 * Expect: Node answers `100 Continue` itself to any value that merely contains "100-continue" and a
 * bare 417 to every other one. Here both reach the request handler, where headerError() refuses all
 * but exactly `100-continue` in the envelope; only that one gets its interim 100 response.
 */
export function handleExpectations(server: Server): void {
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (headerError(req) === null) res.writeContinue();
    server.emit("request", req, res);
  });
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => server.emit("request", req, res));
}
