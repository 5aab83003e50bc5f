// Traces one pacing run against the real API in this process, to explain each 429: for every
// refusal it prints which window refused, the server's decision time against the client's send
// time, how many requests the server held in that window and how many of them the client's own
// log still held when it sent (a request counts in the client's log from its send until its
// answer arrived + the span). Also reports the limiter's local fallback (a store round trip over
// its timeout), and how far the store's clock is from this process's.
//
//   pnpm --filter @fiskal/client exec tsx scripts/pacing-trace.ts --plan BUSINESS --calls 1000 --concurrency 50 [--store]
import { randomBytes } from "node:crypto";
import pino from "pino";
import { startApi } from "@fiskal/api";
import { createAccount, createApiKey, readKpdCsv } from "@fiskal/accounts";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { runMixed, type RunResult } from "./pacing.ts";
import { pacingStack } from "./pacing-stack.ts";

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : dflt;
};
const plan = opt("plan", "BUSINESS") as "SANDBOX" | "STARTER" | "BUSINESS";
const calls = Number(opt("calls", "1000"));
const concurrency = Number(opt("concurrency", "50"));
const REDIS_URL = "redis://127.0.0.1:6379";

const { db, apiOptions } = await pacingStack(REDIS_URL, "pt");
let fallbacks = 0;
const api = await startApi({
  ...apiOptions,
  logger: pino({ level: "warn", hooks: { logMethod(args, method) { if (String(args.at(-1)).includes("fallback")) fallbacks++; method.apply(this, args); } } }, pino.destination(2)),
});
const codes = (await readKpdCsv()).filter((r) => r.level === 5).map((r) => r.code);
const acct = await createAccount(api.services.db, { name: `Trag ${plan} d.o.o.`, plan });
const key = (await createApiKey(api.services.db, acct.id, "trace")).key;
const identity = `acct:${acct.id}`;

interface Dec {
  start: number;
  end: number;
  decidedAt: number;
  allowed: boolean;
  degraded: boolean;
  endpoint: string | undefined;
  binding: string;
}
const decisions: Dec[] = [];
const limiter = api.services.limiter;
type Decide = typeof limiter.decide;
const decide: Decide = limiter.decide.bind(limiter);
limiter.decide = async (input: Parameters<Decide>[0]) => {
  const start = Date.now();
  const d = await decide(input);
  if (input.identity === identity && !input.scope) {
    decisions.push({ start, end: Date.now(), decidedAt: d.decidedAt, allowed: d.allowed, degraded: d.degraded, endpoint: input.endpoint, binding: d.binding.policy });
  }
  return d;
};

const two = argv.includes("--two");
const shared = argv.includes("--store");
const namespace = `trace-${randomBytes(4).toString("hex")}`;
type Log = Array<[number, number | null, number]>;
const t0 = Date.now();
let sent: Log;
if (two) {
  const script = fileURLToPath(new URL("./pacing-child.ts", import.meta.url));
  const args = { baseUrl: api.url, apiKey: key, calls: calls / 2, concurrency, codes, startAt: Date.now() + 3_000, trace: true, ...(shared ? { redisUrl: REDIS_URL, namespace } : {}) };
  const parts = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<RunResult>((resolve, reject) => {
          const p = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(args)], { stdio: ["ignore", "pipe", "inherit"] });
          let out = "";
          p.stdout.on("data", (c: Buffer) => (out += c.toString()));
          p.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1)!) as RunResult) : reject(new Error(`child exited ${code}`))));
        }),
    ),
  );
  sent = parts.flatMap((p) => p.log ?? []).sort((a, b) => a[0] - b[0]);
} else {
  const r = await runMixed({ baseUrl: api.url, apiKey: key, calls, concurrency, codes, trace: true, ...(shared ? { client: { sharedPacing: { redis: REDIS_URL, namespace } } } : {}) });
  sent = r.log ?? [];
}
const first = sent[0]?.[0] ?? t0;
const wall = Math.max(...sent.map((s) => s[1] ?? 0)) - first;

const spanOf = (policy: string) => (policy === "burst" ? 1_000 : 60_000);
const skew = decisions.map((d) => [d.decidedAt - d.start, d.end - d.decidedAt]);
const minBefore = Math.min(...skew.map((s) => s[0]!));
const minAfter = Math.min(...skew.map((s) => s[1]!));
console.log(`${plan} ${calls} calls at ${two ? "2 × " : ""}${concurrency}${shared ? " with the shared store" : ""}: ${wall} ms, ${sent.filter((s) => s[2] === 429).length} × 429, ${decisions.length} decisions, fallback events ${fallbacks}, degraded decisions ${decisions.filter((d) => d.degraded).length}`);
console.log(`store clock - process clock: decidedAt - call start ≥ ${minBefore} ms, call end - decidedAt ≥ ${minAfter} ms`);
for (const r of decisions.filter((d) => !d.allowed)) {
  const W = spanOf(r.binding.startsWith("endpoint") ? "minute" : r.binding);
  const inGroup = (d: Dec) => !r.binding.startsWith("endpoint") || d.endpoint === r.endpoint;
  const held = decisions.filter((d) => d.allowed && inGroup(d) && d.decidedAt > r.decidedAt - W && d.decidedAt <= r.decidedAt);
  // the client's request refused by this decision: the 429 whose send is the latest before it
  const mine = sent.filter((s) => s[2] === 429 && s[0] <= r.start).at(-1);
  const S = mine?.[0] ?? r.start;
  // (an endpoint window's group is not in the log: every request is counted for it)
  const inLog = sent.filter((s) => s !== mine && s[2] !== 429 && s[0] <= S && (s[1] === null || s[1] + W > S));
  const late = held.filter((d) => d.decidedAt > d.end || d.decidedAt < d.start);
  console.log(
    `429 by ${r.binding} at t+${r.decidedAt - first} ms${r.degraded ? " (degraded)" : ""}, sent ${r.decidedAt - S} ms before; server held ${held.length}, the client's log ${inLog.length}; ` +
      `held decisions outside their call: ${late.length}; oldest held decided t+${held[0] ? held[0].decidedAt - first : "-"}`,
  );
  if (held.length > inLog.length) {
    const freed = sent.filter((s) => s[2] !== 429 && s[1] !== null && s[1] + W <= S && s[1] + W > S - 2_000);
    console.log(`  answers whose slot the log freed in the 2 s before the send: ${freed.map((s) => `t+${s[0] - first}..${s[1]! - first}`).join(", ")}`);
    console.log(`  held admissions decided in the 2 s after (D − W): ${held.filter((d) => d.decidedAt <= r.decidedAt - W + 2_000).map((d) => `t+${d.decidedAt - first}`).join(", ")}`);
  }
}
await api.close();
await db.drop();
process.exit(0);
