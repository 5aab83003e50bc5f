// The floor of DESIGN §4: the bare handler (bench/bare-server.mjs) plus only what every admitted
// request must do under the design — one decision of the four @upstash/ratelimit windows on the real
// Redis (one pipelined round trip) and the rate-limit headers it produces. No auth, no tRPC, no
// metering: whatever the full stack costs beyond this row is the API's own; what this row costs
// beyond the bare handler is the price of the design itself.
import { randomUUID } from "node:crypto";
import { createRateLimiter, type Limits } from "@fiskal/limits";
import { serveDecided } from "./decided-server.ts";

const limits: Limits = { burst: 1_000_000_000, perMinute: 1_000_000_000, perDay: 1_000_000_000_000, endpoints: { oib: 1_000_000_000 } };
const identity = `acct:bench-${randomUUID()}`;
const rl = createRateLimiter({
  store: { kind: "redis", url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
  prefix: `fiskal-bench:${randomUUID()}`,
  redisTimeoutMs: 1_000,
});

serveDecided(() => rl.decide({ identity, limits, endpoint: "oib" }));
