// The intermediary port over HTTP: the connector to an intermediary (informacijski posrednik)
// reached by URL and an API key, configured like the CIS client (INTERMEDIARY_URL,
// INTERMEDIARY_API_KEY), and the simulator served with the same protocol, which tests the connector.
//
// The protocol (JSON, `Authorization: Bearer <key>`):
//   POST {url}/documents                    {ubl, sellerOib, buyerOib?, buyerEndpoint?, messageId} → 200 {id, status}
//                                           422 {error: "rejected", message, rules} · 429 (Retry-After) · 503
//   GET  {url}/inbox/{oib}?limit=N          → 200 {documents: [{messageId, recipientOib, ubl, deliveredAt}]}
//   POST {url}/inbox/{oib}/acknowledge      {messageIds} → 204
// An access point's own API is mapped onto these three calls by its adapter; the port does not change.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { IntermediaryError, type InboxDocument, type Intermediary, type IntermediarySimulator } from "./intermediary.ts";

export interface HttpIntermediaryOptions {
  /** Base URL; https, except on a loopback address (a local simulator). */
  url: string;
  apiKey: string;
  /** Per call, default 15 s. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function createHttpIntermediary(opts: HttpIntermediaryOptions): Intermediary & { readonly url: string } {
  const base = new URL(opts.url.endsWith("/") ? opts.url : `${opts.url}/`);
  if (base.protocol !== "https:" && !(base.protocol === "http:" && LOOPBACK.has(base.hostname))) {
    throw new Error(`the intermediary's address must be https, got ${base.protocol}//${base.host}`);
  }
  if (!opts.apiKey) throw new Error("the intermediary needs an API key");
  const fetcher = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 15_000;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetcher(new URL(path, base), {
        method,
        headers: { authorization: `Bearer ${opts.apiKey}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new IntermediaryError(`intermediary unreachable: ${(err as Error).message}`, "unavailable");
    }
    const text = await res.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (res.status === 429) {
      const retry = Number(res.headers.get("retry-after"));
      throw new IntermediaryError("intermediary throttled the call", "throttled", Number.isFinite(retry) && retry > 0 ? retry : 1);
    }
    if (res.status === 422 && (json as { error?: string } | null)?.error === "rejected") {
      const r = json as { message?: string; rules?: string[] };
      throw new IntermediaryError(r.message ?? "document rejected", "rejected", undefined, Array.isArray(r.rules) ? r.rules : []);
    }
    if (res.status >= 300) throw new IntermediaryError(`intermediary answered HTTP ${res.status}`, "unavailable");
    return { status: res.status, json };
  }

  const inboxPath = (oib: string) => `inbox/${encodeURIComponent(oib)}`;
  return {
    url: base.href,
    async send(req) {
      const { json } = await call("POST", "documents", req);
      const r = json as { id?: unknown; status?: unknown } | null;
      if (typeof r?.id !== "string" || (r.status !== "accepted" && r.status !== "queued")) throw new IntermediaryError("intermediary answered without a document id", "unavailable");
      return { id: r.id, status: r.status };
    },
    async fetchInbox(req) {
      const { json } = await call("GET", `${inboxPath(req.oib)}?limit=${req.limit ?? 100}`);
      const docs = (json as { documents?: unknown } | null)?.documents;
      if (!Array.isArray(docs)) throw new IntermediaryError("intermediary answered without documents", "unavailable");
      return docs.filter((d): d is InboxDocument => typeof d?.messageId === "string" && typeof d?.ubl === "string" && typeof d?.recipientOib === "string" && typeof d?.deliveredAt === "string");
    },
    async acknowledge(req) {
      await call("POST", `${inboxPath(req.oib)}/acknowledge`, { messageIds: req.messageIds });
    },
  };
}

/** The simulator behind the HTTP protocol above, on 127.0.0.1 (tests and local runs). */
export async function serveIntermediary(sim: IntermediarySimulator, opts: { apiKey: string; port?: number }): Promise<{ url: string; close(): Promise<void> }> {
  const answer = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, body === undefined ? headers : { "content-type": "application/json", ...headers }).end(body === undefined ? undefined : JSON.stringify(body));
  };
  const readJson = async (req: IncomingMessage): Promise<unknown> => {
    let text = "";
    for await (const chunk of req) text += (chunk as Buffer).toString("utf8");
    return JSON.parse(text) as unknown;
  };
  const server = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${opts.apiKey}`) return answer(res, 401, { error: "unauthorized" });
      const url = new URL(req.url ?? "/", "http://simulator");
      const inbox = /^\/inbox\/(\d{11})(\/acknowledge)?$/.exec(url.pathname);
      try {
        if (req.method === "POST" && url.pathname === "/documents") return answer(res, 200, await sim.send((await readJson(req)) as Parameters<Intermediary["send"]>[0]));
        if (req.method === "GET" && inbox && !inbox[2]) return answer(res, 200, { documents: await sim.fetchInbox({ oib: inbox[1]!, limit: Number(url.searchParams.get("limit") ?? 100) }) });
        if (req.method === "POST" && inbox?.[2]) {
          await sim.acknowledge({ oib: inbox[1]!, messageIds: ((await readJson(req)) as { messageIds: string[] }).messageIds });
          return answer(res, 204);
        }
        return answer(res, 404, { error: "not_found" });
      } catch (err) {
        if (!(err instanceof IntermediaryError)) return answer(res, 400, { error: "bad_request", message: (err as Error).message });
        if (err.kind === "rejected") return answer(res, 422, { error: "rejected", message: err.message, rules: err.rules });
        if (err.kind === "throttled") return answer(res, 429, { error: "throttled" }, { "retry-after": String(err.retryAfterSeconds ?? 1) });
        return answer(res, 503, { error: "unavailable", message: err.message });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
