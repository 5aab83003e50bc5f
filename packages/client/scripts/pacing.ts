// Shared by the pacing benchmark (scripts/pacing-bench.ts), its child processes and the tests
// against the real API: a run of mixed OIB and KPD calls through one client, what it saw, and the
// least time the account's windows allow for it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { FiskalClient, type FiskalClientOptions, type Limits } from "../src/index.ts";

export interface RunResult {
  calls: number;
  /** 429 answers seen on the wire (GET /v1/limits excluded: it is free). */
  refused: number;
  /** Epoch ms of the first send and of the last answer. */
  startedAt: number;
  endedAt: number;
  failures: string[];
  /** Median and 90th percentile of the time from sending a counted request to its answer, ms. */
  answerMs?: { median: number; p90: number };
  /** With `trace`: every counted request as [sent, answered (null: no answer), status (0: none)], epoch ms. */
  log?: Array<[number, number | null, number]>;
}

/** A fetch that counts the 429s of counted calls and notes when the first request went out. */
function countingFetch(log?: Array<[number, number | null, number]>): { fetch: typeof globalThis.fetch; refused: () => number; firstSentAt: () => number | null; answers: number[] } {
  let refused = 0;
  const answers: number[] = [];
  let first: number | null = null;
  const f = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const free = url.pathname === "/v1/limits";
    const sentAt = Date.now();
    if (!free && first === null) first = sentAt;
    const entry: [number, number | null, number] = [sentAt, null, 0];
    if (!free) log?.push(entry);
    const res = await fetch(input, init);
    entry[1] = Date.now();
    entry[2] = res.status;
    if (!free) answers.push(entry[1] - sentAt);
    if (!free && res.status === 429) refused++;
    return res;
  };
  return { fetch: f, refused: () => refused, firstSentAt: () => first, answers };
}

/**
 * `calls` calls, alternately validateOib and getKpd (distinct codes), `concurrency` at a time, through
 * one client.
 */
export async function runMixed(opts: { baseUrl: string; apiKey: string; calls: number; concurrency: number; codes: string[]; client?: Partial<FiskalClientOptions>; trace?: boolean }): Promise<RunResult> {
  const log: Array<[number, number | null, number]> | undefined = opts.trace ? [] : undefined;
  const counter = countingFetch(log);
  const client = new FiskalClient({ apiKey: opts.apiKey, baseUrl: opts.baseUrl, fetch: counter.fetch, kpdCache: false, ...opts.client });
  const failures: string[] = [];
  let next = 0;
  const t0 = Date.now();
  const worker = async () => {
    while (next < opts.calls) {
      const i = next++;
      try {
        if (i % 2 === 0) await client.validateOib(String(10_000_000_000 + i));
        else await client.getKpd(opts.codes[i % opts.codes.length]!);
      } catch (err) {
        failures.push(String((err as Error).message));
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  const endedAt = Date.now();
  await client.close();
  const sorted = [...counter.answers].sort((a, b) => a - b);
  const answerMs = sorted.length ? { median: sorted[Math.floor(sorted.length / 2)]!, p90: sorted[Math.floor(sorted.length * 0.9)]! } : undefined;
  return { calls: opts.calls, refused: counter.refused(), startedAt: counter.firstSentAt() ?? t0, endedAt, failures, answerMs, ...(log ? { log } : {}) };
}

interface SimWindow {
  limit: number;
  spanMs: number;
  /** null: every call; else only the calls of that endpoint group. */
  group: string | null;
}

/** The account's rolling windows (the day excluded: it does not bind here) from GET /v1/limits. */
export function windowsOf(limits: Limits): SimWindow[] {
  const out: SimWindow[] = [];
  for (const w of limits.windows) if (w.window_seconds <= 3_600) out.push({ limit: w.limit, spanMs: w.window_seconds * 1000, group: null });
  for (const e of limits.endpoints) out.push({ limit: e.window.limit, spanMs: e.window.window_seconds * 1000, group: e.group });
  return out;
}

/**
 * The least time from the first admission to the last that the windows allow for `calls`
 * alternating OIB and KPD calls: each call admitted at the earliest moment every window has room.
 */
export function minimumMs(windows: SimWindow[], calls: number): number {
  const admitted: Array<{ at: number; group: string }> = [];
  for (let i = 0; i < calls; i++) {
    const group = i % 2 === 0 ? "oib" : "kpd";
    let at = 0;
    for (const w of windows) {
      if (w.group !== null && w.group !== group) continue;
      const inWindow = w.group === null ? admitted : admitted.filter((a) => a.group === w.group);
      if (inWindow.length >= w.limit) at = Math.max(at, inWindow[inWindow.length - w.limit]!.at + w.spanMs);
    }
    admitted.push({ at, group });
  }
  return admitted.length === 0 ? 0 : admitted.at(-1)!.at;
}

export interface ProxyRule {
  /** Drop the IETF RateLimit / RateLimit-Policy fields of every answer. */
  stripIetf?: boolean;
  /** ms to hold the answer of the n-th proxied request (0-based), after the API answered. */
  delay?: (n: number, answer: { status: number; headers: http.IncomingHttpHeaders }) => number;
  /** Cut the connection instead of passing the n-th answer on (the API has already decided). */
  cut?: (n: number) => boolean;
}

/** An HTTP proxy in front of the API that can strip headers and hold answers back. */
export async function startProxy(target: string, rule: ProxyRule): Promise<{ url: string; close: () => Promise<void> }> {
  const t = new URL(target);
  let n = 0;
  const server = http.createServer((req, res) => {
    const index = n++;
    const upstream = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers };
      if (rule.stripIetf) {
        delete headers.ratelimit;
        delete headers["ratelimit-policy"];
      }
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        const wait = rule.delay?.(index, { status: answer.statusCode ?? 0, headers: answer.headers }) ?? 0;
        setTimeout(() => {
          if (rule.cut?.(index)) {
            res.socket?.destroy();
            return;
          }
          delete headers["transfer-encoding"];
          headers["content-length"] = String(Buffer.concat(chunks).length);
          res.writeHead(answer.statusCode ?? 502, headers).end(Buffer.concat(chunks));
        }, wait);
      });
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  // Idle connections stay open longer than the client's (undici: 4 s), as a production proxy's do
  // (nginx: 75 s): a proxy closing them after 1 s races the client's reuse of a connection idle for
  // a burst window's second, and a POST that meets a closed connection fails with a network error.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
