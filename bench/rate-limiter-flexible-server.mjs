// Peer: what a user would build instead with node:http and rate-limiter-flexible, set up as its
// README shows (RateLimiterRedis over one ioredis client, RateLimiterUnion to consume() every
// limiter of a request, X-RateLimit-* headers from the RateLimiterRes). The same request as the
// other servers: POST /v1/validate/oib with a Bearer key, authenticated against an in-memory map,
// then the four windows of a Fiskal account (burst 1 s, minute 60 s, endpoint 60 s, day 24 h) on
// the same Redis, then the bare handler's OIB check and JSON answer.
//
//   PORT  REDIS_URL  BENCH_API_KEYS (the keys the load sends, comma-separated)  BENCH_PREFIX (Redis key prefix, unique per run)
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createServer } from "node:http";
import Redis from "ioredis";
import { RateLimiterRedis, RateLimiterUnion } from "rate-limiter-flexible";
import { LIMITS } from "./limits.mjs";
import { validOib } from "./oib.mjs";

const prefix = process.env.BENCH_PREFIX ?? `bench-rlf:${randomUUID()}`;
// API key → account id, as a server keeps it after loading its keys
const accounts = new Map((process.env.BENCH_API_KEYS ?? "bench").split(",").map((key) => [key, randomUUID()]));

// enableOfflineQueue: false as in the library's examples: a request fails at once while Redis is away
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { enableOfflineQueue: false });
// the same limits as the floor's and the full stack's, which the bench never reaches
const limiters = [
  { name: "burst", points: LIMITS.burst, duration: 1 },
  { name: "minute", points: LIMITS.perMinute, duration: 60 },
  { name: "endpoint:oib", points: LIMITS.endpoint, duration: 60 },
  { name: "day", points: LIMITS.perDay, duration: 86_400 },
].map(({ name, points, duration }) => new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${name}`, points, duration }));
const union = new RateLimiterUnion(...limiters);

/** The headers of the README for one limiter, for the window with the fewest points left. */
function setHeaders(res, results) {
  let binding = 0;
  for (let i = 1; i < limiters.length; i++) {
    if (results[limiters[i].keyPrefix].remainingPoints < results[limiters[binding].keyPrefix].remainingPoints) binding = i;
  }
  const r = results[limiters[binding].keyPrefix];
  res.setHeader("X-RateLimit-Limit", limiters[binding].points);
  res.setHeader("X-RateLimit-Remaining", r.remainingPoints);
  res.setHeader("X-RateLimit-Reset", Math.ceil((Date.now() + r.msBeforeNext) / 1000));
  return r;
}

// decisions under way: the bench stops the server right after a load, with requests still in flight
let inFlight = 0;

const server = createServer((req, res) => {
  if (req.url === "/healthz") return res.end("ok");
  if (req.method !== "POST" || req.url !== "/v1/validate/oib") {
    res.statusCode = 404;
    return res.end();
  }
  const auth = req.headers.authorization;
  const accountId = auth?.startsWith("Bearer ") ? accounts.get(auth.slice(7)) : undefined;
  if (accountId === undefined) {
    res.statusCode = 401;
    return res.end();
  }
  inFlight++;
  union.consume(accountId).then(
    (results) => {
      inFlight--;
      setHeaders(res, results);
      const chunks = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        const { oib } = JSON.parse(Buffer.concat(chunks).toString());
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ oib, valid: validOib(oib) }));
      });
    },
    (rejected) => {
      inFlight--;
      // a map of RateLimiterRes when a window refused, an Error when Redis failed
      if (rejected instanceof Error || Object.values(rejected).some((r) => r instanceof Error)) {
        res.statusCode = 503;
        return res.end();
      }
      let retry = 0;
      for (const r of Object.values(rejected)) retry = Math.max(retry, r.msBeforeNext);
      res.statusCode = 429;
      res.setHeader("Retry-After", Math.ceil(retry / 1000));
      res.end();
    },
  );
});

await new Promise((resolve) => redis.once("ready", resolve));
server.listen(Number(process.env.PORT), "127.0.0.1");

// Stopped by the bench: let the decisions under way end (at most 5 s), remove this run's keys, leave.
process.once("SIGTERM", async () => {
  server.close();
  for (let waited = 0; inFlight > 0 && waited < 5_000; waited += 10) await sleep(10);
  await Promise.all([...accounts.values()].flatMap((id) => limiters.map((l) => l.delete(id))));
  await redis.quit();
  process.exit(0);
});
