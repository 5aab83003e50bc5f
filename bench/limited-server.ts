// The floor: the bare handler (bench/bare-server.mjs) plus only what every admitted request must do,
// one `createRateLimiter().decide()` of the four windows (burst, minute, endpoint, day) on the real
// Redis and the rate-limit headers it produces (`rateLimitHeaders()`). No auth, no tRPC, no
// metering: whatever the full stack costs beyond this row is the API's own; what this row costs
// beyond the bare handler is the price of the limiter itself. The identity is the request's bearer
// key as sent (not checked), so that the bench's accounts are spread as on the other rows. A refusal
// answers 429, a degraded or failed decision 503 (both counted as errors by the bench).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRateLimiter, rateLimitHeaders, type Limits } from "@fiskal/limits";
import { LIMITS } from "./limits.mjs";
import { validOib } from "./oib.mjs";

const limits: Limits = { burst: LIMITS.burst, perMinute: LIMITS.perMinute, perDay: LIMITS.perDay, endpoints: { oib: LIMITS.endpoint } };
const rl = createRateLimiter({
  store: { kind: "redis", url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
  prefix: `fiskal-bench:${randomUUID()}`,
  redisTimeoutMs: 1_000,
});

createServer((req, res) => {
  if (req.url === "/healthz") return void res.end("ok");
  const identity = `acct:${req.headers.authorization ?? "anonymous"}`;
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const { oib } = JSON.parse(Buffer.concat(chunks).toString()) as { oib: string };
    rl.decide({ identity, limits, endpoint: "oib" }).then(
      (d) => {
        if (!d.allowed || d.degraded) {
          res.statusCode = d.allowed ? 503 : 429;
          return void res.end();
        }
        for (const [name, value] of Object.entries(rateLimitHeaders(d))) res.setHeader(name, value);
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ oib, valid: validOib(oib) }));
      },
      () => {
        res.statusCode = 503;
        res.end();
      },
    );
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
