import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { checkUrlSyntax, guardedLookup } from "./ssrf.ts";

/** Enough of a response body to explain a failure in the delivery log. */
const MAX_RESPONSE_BODY_BYTES = 2048;
const USER_AGENT = "Fiskal-Webhooks/1";

export type AttemptOutcome = {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBody: string | null;
  /** From a Retry-After header on a non-2xx response. */
  retryAfterMs: number | null;
};

export type SendInput = {
  url: string;
  secret: string;
  msgId: string;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
};

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

function signHeaders(secret: string, msgId: string, body: string, at: Date): Record<string, string> {
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(msgId, at, body),
  };
}

/** One signed POST. Redirects are not followed; every failure comes back as an outcome, never thrown. */
export function sendSigned(input: SendInput): Promise<AttemptOutcome> {
  const startedAt = new Date();
  const started = performance.now();
  const finish = (o: Omit<AttemptOutcome, "startedAt" | "durationMs">): AttemptOutcome => ({
    startedAt,
    durationMs: Math.round(performance.now() - started),
    ...o,
  });

  const syntax = checkUrlSyntax(input.url, input.allowPrivate);
  if (!syntax.ok) {
    return Promise.resolve(finish({ statusCode: null, error: `refused: ${syntax.reason}`, responseBody: null, retryAfterMs: null }));
  }
  const url = syntax.url;
  const body = Buffer.from(input.body, "utf8");
  const headers = {
    "content-type": "application/json",
    "content-length": String(body.length),
    "user-agent": USER_AGENT,
    ...signHeaders(input.secret, input.msgId, input.body, startedAt),
  };

  return new Promise((resolve) => {
    let settled = false;
    const done = (o: Omit<AttemptOutcome, "startedAt" | "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(finish(o));
    };
    const request = (url.protocol === "https:" ? https : http).request(url, {
      method: "POST",
      headers,
      agent: false,
      lookup: guardedLookup(input.allowPrivate),
    });
    const timer = setTimeout(() => {
      done({ statusCode: null, error: `timed out after ${input.timeoutMs} ms`, responseBody: null, retryAfterMs: null });
      request.destroy();
    }, input.timeoutMs);

    request.on("error", (err: NodeJS.ErrnoException) => {
      done({ statusCode: null, error: err.code ? `${err.code}: ${err.message}` : err.message, responseBody: null, retryAfterMs: null });
    });
    request.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const statusCode = res.statusCode ?? 0;
      const complete = () => {
        const text = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BODY_BYTES).toString("utf8");
        const ok = statusCode >= 200 && statusCode < 300;
        const retryAfter = ok ? null : parseRetryAfter(res.headers["retry-after"]);
        const error = ok ? null : statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `HTTP ${statusCode}`;
        done({ statusCode, error, responseBody: text === "" ? null : text, retryAfterMs: retryAfter });
        res.destroy();
      };
      res.on("data", (chunk: Buffer) => {
        if (size < MAX_RESPONSE_BODY_BYTES) chunks.push(chunk);
        size += chunk.length;
        // The status is what counts; no need to download a large body.
        if (size >= MAX_RESPONSE_BODY_BYTES) complete();
      });
      res.on("end", complete);
      res.on("error", complete);
    });
    request.end(body);
  });
}
