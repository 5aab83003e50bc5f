/**
 * For tests: the Upstash REST protocol in front of a real Redis, so the official REST client of
 * @upstash/redis (and the limiter's "upstash" store) runs against the local server.
 *
 *   POST /            a JSON array command → {"result": …} or {"error": …}
 *   POST /pipeline    an array of commands → an array of those
 *   Authorization: Bearer <token>; with `Upstash-Encoding: base64`, string results are base64.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis as IORedis } from "ioredis";

type Result = string | number | null | Result[];

export interface UpstashBridge {
  url: string;
  token: string;
  /** commands answered so far */
  readonly commands: number;
  close(): Promise<void>;
}

function encode(value: unknown, base64: boolean): Result {
  if (Array.isArray(value)) return value.map((v) => encode(v, base64));
  if (Buffer.isBuffer(value)) return base64 ? value.toString("base64") : value.toString("utf8");
  if (typeof value === "string") return base64 ? Buffer.from(value).toString("base64") : value;
  return value as Result;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startUpstashBridge(redisUrl: string, token = "test-token"): Promise<UpstashBridge> {
  const redis = new IORedis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 0 });
  let commands = 0;

  const run = async (command: unknown[], base64: boolean): Promise<{ result?: Result; error?: string }> => {
    commands++;
    try {
      const [name, ...args] = command.map(String);
      const reply = await redis.callBuffer(name!, ...args);
      return { result: encode(reply, base64) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    if (req.method !== "POST") return send(405, { error: "only POST" });
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
    const body = await readJson(req);
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/pipeline") {
      const results = [];
      for (const c of body as unknown[][]) results.push(await run(c, base64));
      return send(200, results);
    }
    if (path !== "/") return send(404, { error: `${path} is not served here` });
    const answer = await run(body as unknown[], base64);
    return send(answer.error ? 400 : 200, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: err.message }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    get commands() {
      return commands;
    },
    close: async () => {
      server.closeAllConnections();
      server.close();
      await redis.quit();
    },
  };
}
