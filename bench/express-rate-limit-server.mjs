// Peer: what a user would build instead with Express 5, express-rate-limit and rate-limit-redis, set
// up as their READMEs show (one RedisStore per limiter over one ioredis client through
// `sendCommand`, `standardHeaders: "draft-8"`, `legacyHeaders: false`, a key generator on the
// authenticated account). The same request as the other servers: POST /v1/validate/oib with a
// Bearer key; `express.json()`, authentication against an in-memory map, the four windows of a
// Fiskal account (burst 1 s, minute 60 s, endpoint 60 s, day 24 h) on the same Redis as four
// middlewares (the endpoint's on its route), then the bare handler's OIB check and JSON answer.
// Express's defaults (ETag, X-Powered-By) are kept.
//
//   PORT  REDIS_URL  BENCH_API_KEYS (the keys the load sends, comma-separated)  BENCH_PREFIX (Redis key prefix, unique per run)
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import express from "express";
import { rateLimit } from "express-rate-limit";
import Redis from "ioredis";
import { RedisStore } from "rate-limit-redis";
import { LIMITS } from "./limits.mjs";
import { validOib } from "./oib.mjs";

const prefix = process.env.BENCH_PREFIX ?? `bench-erl:${randomUUID()}`;
// API key → account id, as a server keeps it after loading its keys
const accounts = new Map((process.env.BENCH_API_KEYS ?? "bench").split(",").map((key) => [key, randomUUID()]));

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
await new Promise((resolve) => redis.once("ready", resolve));

// the same limits as the floor's and the full stack's, which the bench never reaches
const limiter = (identifier, windowMs, limit) =>
  rateLimit({
    windowMs,
    limit,
    identifier,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (_req, res) => res.locals.accountId,
    store: new RedisStore({ sendCommand: (command, ...args) => redis.call(command, ...args), prefix: `${prefix}:${identifier}:` }),
  });
const burst = limiter("burst", 1_000, LIMITS.burst);
const minute = limiter("minute", 60_000, LIMITS.perMinute);
const endpoint = limiter("endpoint:oib", 60_000, LIMITS.endpoint);
const day = limiter("day", 86_400_000, LIMITS.perDay);

// requests past authentication and not yet answered: the bench stops the server right after a
// load, with requests still going through the limiters
let inFlight = 0;

const app = express();
app.get("/healthz", (_req, res) => res.send("ok"));
app.use(express.json());
app.use((req, res, next) => {
  const auth = req.get("authorization");
  const accountId = auth?.startsWith("Bearer ") ? accounts.get(auth.slice(7)) : undefined;
  if (accountId === undefined) return res.sendStatus(401);
  res.locals.accountId = accountId;
  inFlight++;
  next();
});
app.use(burst, minute, day);
app.post("/v1/validate/oib", endpoint, (req, res) => {
  inFlight--;
  const { oib } = req.body;
  res.json({ oib, valid: validOib(oib) });
});
app.use((err, _req, res, next) => {
  if (res.locals.accountId !== undefined) inFlight--;
  next(err);
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1");

// Stopped by the bench: let the requests under way end (at most 5 s), remove this run's keys, leave.
process.once("SIGTERM", async () => {
  server.close();
  for (let waited = 0; inFlight > 0 && waited < 5_000; waited += 10) await sleep(10);
  await Promise.all([...accounts.values()].flatMap((id) => [burst, minute, endpoint, day].map((l) => l.resetKey(id))));
  await redis.quit();
  process.exit(0);
});
