// The floor of DESIGN §4: the bare handler (bench/bare-server.mjs) plus only what every admitted
// request must do under the design — one decision of the four @upstash/ratelimit windows on the real
// Redis (one pipelined round trip) and the rate-limit headers it produces. No auth, no tRPC, no
// metering: whatever the full stack costs beyond this row is the API's own; what this row costs
// beyond the bare handler is the price of the design itself.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRateLimiter, rateLimitHeaders, type Limits } from "@fiskal/limits";
import { validOib } from "./oib.mjs";

const limits: Limits = { burst: 1_000_000_000, perMinute: 1_000_000_000, perDay: 1_000_000_000_000, endpoints: { oib: 1_000_000_000 } };
const identity = `acct:bench-${randomUUID()}`;
const rl = createRateLimiter({
  store: { kind: "redis", url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
  prefix: `fiskal-bench:${randomUUID()}`,
  redisTimeoutMs: 1_000,
});

createServer((req, res) => {
  if (req.url === "/healthz") return void res.end("ok");
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { oib } = JSON.parse(Buffer.concat(chunks).toString()) as { oib: string };
    void rl.decide({ identity, limits, endpoint: "oib" }).then((d) => {
      if (!d.allowed || d.degraded) {
        res.statusCode = d.allowed ? 503 : 429;
        return void res.end();
      }
      for (const [name, value] of Object.entries(rateLimitHeaders(d))) res.setHeader(name, value);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ oib, valid: validOib(oib) }));
    });
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
