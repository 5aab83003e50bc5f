/** Pure functions turning a Decision into response headers and the 429 body. */
import type { Decision, WindowState } from "./types.ts";

/** "n sekundu/sekunde/sekundi" with the Croatian plural after a number (accusative, "za … "). */
export function sekundi(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`sekundi() needs a non-negative integer, got ${n}`);
  const lastTwo = n % 100;
  const last = n % 10;
  if (last === 1 && lastTwo !== 11) return `${n} sekundu`;
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return `${n} sekunde`;
  return `${n} sekundi`;
}

/** An RFC 8941 sf-string: policy names are ASCII, but escape the two characters that need it. */
function sfString(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Whole seconds until the window's quota next increases, rounded up so it is never early. */
const secondsOf = (w: WindowState): number => Math.ceil(w.resetInMs / 1000);

/**
 * X-RateLimit-* of the binding window, Retry-After on refusal, and the IETF RateLimit-Policy /
 * RateLimit fields listing every window (draft-ietf-httpapi-ratelimit-headers: quoted policy names,
 * q/w and r/t parameters). `t` is the seconds until that window's quota next increases; on a 429 the
 * binding window's `t` is Retry-After. X-RateLimit-Reset is the moment the binding window's quota
 * next increases (on a 429: when it admits again), in Unix seconds rounded up (never early).
 *
 * Every instant is the decision's own, on the store's clock (`WindowState.reset`): never the store's
 * relative time added to this process's clock, which runs a few milliseconds later and would round
 * the day's 00:00 UTC up to 00:00:01.
 */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  const b = d.binding;
  const t = (w: WindowState): number => (!d.allowed && w === b && d.retryAfterSeconds !== undefined ? d.retryAfterSeconds : secondsOf(w));
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(b.limit),
    "X-RateLimit-Remaining": String(b.remaining),
    "X-RateLimit-Reset": String(Math.ceil(b.reset / 1000)),
    "RateLimit-Policy": d.windows.map((w) => `${sfString(w.policy)};q=${w.limit};w=${w.windowSeconds}`).join(", "),
    RateLimit: d.windows.map((w) => `${sfString(w.policy)};r=${w.remaining};t=${t(w)}`).join(", "),
  };
  if (!d.allowed && d.retryAfterSeconds !== undefined) headers["Retry-After"] = String(d.retryAfterSeconds);
  return headers;
}

export interface RateLimitExceededBody {
  error: { code: "rate_limit_exceeded"; message: string; doc_url: string };
}

/** The 429 body; the message names the same number of seconds as Retry-After. */
export function rateLimitExceededBody(d: Decision, docUrl: string): RateLimitExceededBody {
  if (d.allowed || d.retryAfterSeconds === undefined) {
    throw new Error("rateLimitExceededBody() needs a refused decision");
  }
  return {
    error: {
      code: "rate_limit_exceeded",
      message: `Previše zahtjeva: prekoračeno je ograničenje broja zahtjeva. Pokušajte ponovno za ${sekundi(d.retryAfterSeconds)}.`,
      doc_url: docUrl,
    },
  };
}
