/**
 * What one rate-limit decision costs Redis, and what Redis holds per account: on a private
 * `redis-server` (a free port, no persistence), so that `INFO commandstats` and the server's CPU
 * from /proc count nothing else.
 *
 *  1. Fiskal: `Engine.decide()` of a Business account's windows as the API asks for them on
 *     POST /v1/validate/oib (burst, minute, endpoint group oib, day), for BENCH_ACCOUNTS accounts
 *     (default 1,000) in turn, BENCH_CONCURRENCY (default 50) in flight, over the product's Redis
 *     requester. Every decision must be admitted (a counting decision); a run that is refused
 *     anything exits 1. Reports the script's µs per call (`usec_per_call` of EVALSHA), every
 *     command's µs per decision, and Redis's CPU per decision from /proc (commands, reading and
 *     writing sockets).
 *  2. The same EVALSHA calls sent raw, one socket write per command against one write per event-loop
 *     tick (the requester's auto-pipelining): Redis CPU per decision of each. Then coalesced: the
 *     decisions of one tick in one EVALSHA of a wrapper that runs the script's body once per
 *     decision (each all or nothing on its own) and asks TIME once: µs and CPU per decision.
 *  3. The peer, rate-limiter-flexible 11.4.0 as bench/rate-limiter-flexible-server.mjs uses it:
 *     four RateLimiterRedis (burst 1 s, minute, endpoint, day) in a RateLimiterUnion over ioredis,
 *     the same accounts: every command's µs per decision and Redis CPU per decision.
 *  4. Memory per active account, per plan: accounts that used their minute's limit evenly over a
 *     minute (charge() in 100 steps of 600 ms on a test clock) on the oib endpoint, `used_memory`
 *     before and after divided by the accounts; the peer's four counters the same way.
 *  5. Decisions/s of one Redis core: 10⁶ ÷ Redis CPU µs per decision (the load generator shares the
 *     machine's cores, so Redis is not saturated by it; the figure is what its CPU per decision allows).
 *
 * Prints one JSON line (and a table on stderr). Exits 1 when the script's µs per counting decision is
 * over BENCH_SCRIPT_BUDGET_US (default 15) or a decision was refused.
 *
 *   BENCH_ACCOUNTS (1000)  BENCH_DECISIONS (60000 per phase)  BENCH_CONCURRENCY (50)
 *   BENCH_LIMITS_SRC: another copy of packages/limits/src to measure (e.g. an earlier commit's)
 *   BENCH_CALLGRIND=1: redis-server under valgrind's callgrind: instructions per decision of Fiskal
 *     and of the peer (independent of how busy the machine is; 2,000 decisions over 100 accounts;
 *     no memory rows)
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import IORedis from "ioredis";
import { RateLimiterRedis, RateLimiterUnion } from "rate-limiter-flexible";

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.resolve(process.env.BENCH_LIMITS_SRC ?? path.join(here, "../packages/limits/src"));
// under callgrind 2,000 decisions over 100 accounts, so that most of them find their windows as a running account does
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? (process.env.BENCH_CALLGRIND === "1" ? 100 : 1_000));
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? (process.env.BENCH_CALLGRIND === "1" ? 2_000 : 60_000));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const BUDGET_US = Number(process.env.BENCH_SCRIPT_BUDGET_US ?? 15);
/** Runs redis-server under callgrind and reports instructions per decision instead of timing the rest. */
const CALLGRIND = process.env.BENCH_CALLGRIND === "1";

interface Limits {
  burst: number;
  perMinute: number;
  perDay: number;
  endpoints?: Partial<Record<"fiscalize" | "einvoice" | "kpd" | "oib", number>>;
}
interface DecideInput {
  identity: string;
  limits: Limits;
  endpoint?: "oib";
}
interface EngineLike {
  decide(input: DecideInput): Promise<{ allowed: boolean }>;
  charge?(input: DecideInput, count: number): Promise<void>;
}
type EngineClass = new (redis: Redis, prefix: string, opts?: { testClock?: () => number }) => EngineLike;
interface RequesterLike {
  ready(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** An @upstash/redis client, as the engine takes it */
type Redis = object;
// @upstash/redis as the limits package resolves it (the bench does not depend on it itself)
const { Redis } = (await import(pathToFileURL(createRequire(path.join(src, "engine.ts")).resolve("@upstash/redis")).href)) as {
  Redis: new (requester: unknown) => Redis;
};
const { Engine } = (await import(path.join(src, "engine.ts"))) as { Engine: EngineClass };
const { createRedisRequester } = (await import(path.join(src, "redis-requester.ts"))) as {
  createRedisRequester: (url: string, timeoutMs: number) => RequesterLike;
};
const { PLANS } = (await import(path.join(src, "plans.ts"))) as { PLANS: Record<"SANDBOX" | "STARTER" | "BUSINESS", Limits> };

// ── a private redis-server ─────────────────────────────────────────────────────────────────────
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  server.close();
  await once(server, "close");
  return port;
}
const port = await freePort();
const serverArgs = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning"];
const callgrindDir = CALLGRIND ? mkdtempSync(path.join(tmpdir(), "fiskal-callgrind-")) : "";
const server = CALLGRIND
  ? spawn("valgrind", ["--tool=callgrind", `--callgrind-out-file=${callgrindDir}/out.%p`, "redis-server", ...serverArgs], { stdio: "ignore" })
  : spawn("redis-server", serverArgs, { stdio: "ignore" });
const stopServer = () => {
  if (server.exitCode === null) server.kill("SIGKILL");
  if (callgrindDir) rmSync(callgrindDir, { recursive: true, force: true });
};
process.on("exit", stopServer);
const url = `redis://127.0.0.1:${port}`;
for (let i = 0; !(await accepts(port)); i++) {
  if (i > 1_200) throw new Error(`redis-server did not start on port ${port}`);
  await new Promise((r) => setTimeout(r, 25));
}
function accepts(p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(p, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
const io = new IORedis(url);

/** CPU µs (user + system) the redis-server has used so far. */
function redisCpuUs(): number {
  const fields = readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6;
}

interface CommandStats {
  calls: Record<string, number>;
  usec: Record<string, number>;
}
async function commandStats(): Promise<CommandStats> {
  const info = await io.info("commandstats");
  const calls: Record<string, number> = {};
  const usec: Record<string, number> = {};
  for (const m of info.matchAll(/cmdstat_([^:]+):calls=(\d+),usec=(\d+)/g)) {
    if (m[1] === "info" || m[1] === "config") continue;
    calls[m[1]!] = Number(m[2]);
    usec[m[1]!] = Number(m[3]);
  }
  return { calls, usec };
}

interface Phase {
  decisions: number;
  refused: number;
  seconds: number;
  /** usec_per_call of EVALSHA (Fiskal: its one script) */
  evalshaUsPerCall?: number;
  /** the scripts' µs (EVALSHA and EVAL, the commands they call included), per decision */
  commandUsPerDecision: number;
  /** the redis-server's CPU per decision, from /proc */
  redisCpuUsPerDecision: number;
  /** commands per decision, the scripts and the commands they call */
  commandsPerDecision: number;
  /** BENCH_CALLGRIND=1: instructions redis-server executed per decision (deterministic) */
  instructionsPerDecision?: number;
}

/** Callgrind's instruction count since the last call (BENCH_CALLGRIND=1), or undefined. */
let dumps = 0;
function instructionsSinceLast(): number | undefined {
  if (!CALLGRIND) return undefined;
  spawnSync("callgrind_control", ["-d", String(server.pid)]);
  dumps++;
  const file = readdirSync(callgrindDir).find((f) => f.endsWith(`.${dumps}`));
  return file ? Number(/totals: (\d+)/.exec(readFileSync(path.join(callgrindDir, file), "utf8"))?.[1]) : undefined;
}

/** Runs `decide` DECISIONS times, CONCURRENCY at once, measuring Redis around it. */
async function measure(decide: (i: number) => Promise<boolean>): Promise<Phase> {
  await io.config("RESETSTAT");
  instructionsSinceLast();
  const cpu0 = redisCpuUs();
  const t0 = performance.now();
  let next = 0;
  let refused = 0;
  const caller = async () => {
    while (next < DECISIONS) {
      if (!(await decide(next++))) refused++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  const seconds = (performance.now() - t0) / 1000;
  const instructions = instructionsSinceLast();
  const cpu = redisCpuUs() - cpu0;
  const stats = await commandStats();
  // the scripts' time includes the commands they call
  const totalUs = (stats.usec.evalsha ?? 0) + (stats.usec.eval ?? 0);
  const totalCalls = Object.values(stats.calls).reduce((a, b) => a + b, 0);
  return {
    decisions: DECISIONS,
    refused,
    seconds: round(seconds),
    evalshaUsPerCall: stats.calls.evalsha ? round(stats.usec.evalsha! / stats.calls.evalsha) : undefined,
    commandUsPerDecision: round(totalUs / DECISIONS),
    redisCpuUsPerDecision: round(cpu / DECISIONS),
    commandsPerDecision: round(totalCalls / DECISIONS),
    instructionsPerDecision: instructions === undefined ? undefined : Math.round(instructions / DECISIONS),
  };
}

const round = (n: number) => Math.round(n * 100) / 100;
const accounts = (tag: string) => Array.from({ length: ACCOUNTS }, (_, i) => `acct:${tag}-${i}`);

// ── 1. Fiskal's decision over the product's requester ─────────────────────────────────────────
const requester = createRedisRequester(url, 2_000);
await requester.ready(5_000);
const engine = new Engine(new Redis(requester), `bench-script:${process.pid}`);
const business = PLANS.BUSINESS;
{
  // warm-up: the script is loaded, the JIT warm
  const ids = accounts("warm");
  for (let i = 0; i < 2_000; i++) await engine.decide({ identity: ids[i % ids.length]!, limits: business, endpoint: "oib" });
}
const fiskalIds = accounts("fiskal");
const fiskal = await measure(async (i) => (await engine.decide({ identity: fiskalIds[i % ACCOUNTS]!, limits: business, endpoint: "oib" })).allowed);

// ── 2. the same script calls, raw: one write per command, and one per tick ─────────────────────
const { SCRIPT_SHA: sha } = (await import(path.join(src, "script.ts"))) as { SCRIPT_SHA: string };
/** The command Engine.decide sends for one Business decision on POST /v1/validate/oib, captured. */
async function capturedCommand(): Promise<string[]> {
  const sent: string[][] = [];
  const capture = new Redis({
    request: async (req: { body?: unknown }) => {
      const body = (req.body as unknown[]).map(String);
      sent.push(body);
      try {
        return { result: await io.call(body[0]!, ...body.slice(1)) };
      } catch (err) {
        return { error: (err as Error).message };
      }
    },
  });
  await new Engine(capture, "capture").decide({ identity: "acct:capture", limits: business, endpoint: "oib" });
  return sent.find((c) => c[0]!.toLowerCase() === "evalsha" || c[0]!.toLowerCase() === "eval")!;
}
const template = await capturedCommand();
const encode = (args: readonly string[]): string => {
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
  return out;
};
/** Raw EVALSHA of Fiskal's script for DECISIONS decisions, CONCURRENCY in flight, writing per command or per tick. */
async function raw(perTick: boolean, tag: string): Promise<Phase> {
  const socket = net.connect(port, "127.0.0.1");
  socket.setNoDelay(true);
  await once(socket, "connect");
  const capturePrefix = "capture:{acct:capture}";
  const waiting: (() => void)[] = [];
  let buffered = Buffer.alloc(0);
  // the answers are arrays of integers: count complete top-level replies
  socket.on("data", (chunk: Buffer) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    let pos = 0;
    for (;;) {
      const end = replyEnd(buffered, pos);
      if (end < 0) break;
      pos = end;
      waiting.shift()!();
    }
    buffered = buffered.subarray(pos);
  });
  let outbox = "";
  let scheduled = false;
  const send = (cmd: string) =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!perTick) {
        socket.write(cmd);
        return;
      }
      outbox += cmd;
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          socket.write(outbox);
          outbox = "";
        });
      }
    });
  const ids = accounts(tag);
  const phase = await measure(async (i) => {
    const id = `{${ids[i % ACCOUNTS]!}}`;
    const args = template.map((a) => a.replace(capturePrefix, `bench-raw:${id}`));
    args[0] = "EVALSHA";
    args[1] = sha;
    await send(encode(args));
    return true;
  });
  socket.destroy();
  return phase;
}
function replyEnd(b: Buffer, pos: number): number {
  if (pos >= b.length) return -1;
  const line = b.indexOf("\r\n", pos);
  if (line < 0) return -1;
  const type = b[pos];
  if (type === 0x3a || type === 0x2b || type === 0x2d) return line + 2;
  if (type === 0x2a) {
    let p = line + 2;
    const n = Number(b.toString("latin1", pos + 1, line));
    for (let i = 0; i < n; i++) {
      p = replyEnd(b, p);
      if (p < 0) return -1;
    }
    return p;
  }
  throw new Error(`unexpected reply type ${String(type)}`);
}
const perCommand = await raw(false, "raw-each");
const perTick = await raw(true, "raw-tick");

// ── 2b. coalescing: the decisions of one event-loop turn in one script call ─────────────────────
// The script's body wrapped in a function and called once per decision from one EVALSHA (each
// decision still all or nothing on its own), the store's TIME asked once per call. Only an
// experiment: the product sends one call per decision.
const { SCRIPT: body } = (await import(path.join(src, "script.ts"))) as { SCRIPT: string };
const COALESCED = `local function decide(KEYS, ARGV)\n${body}\nend
local n, out, ka, aa, now = tonumber(ARGV[1]), {}, 1, 2 + 2 * tonumber(ARGV[1]), false
for i = 1, n do
  local nk, na = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  local keys, args = {}, {}
  for j = 1, nk do keys[j] = KEYS[ka + j - 1] end
  for j = 1, na do args[j] = ARGV[aa + j - 1] end
  if args[1] == '' then
    if not now then
      local t = redis.call('TIME')
      now = tostring(t[1] * 1000 + math.floor(t[2] / 1000))
    end
    args[1] = now
  end
  ka, aa = ka + nk, aa + na
  out[i] = decide(keys, args)
end
return out`;
const coalescedSha = (await io.script("LOAD", COALESCED)) as string;
const coalescedCalls = { calls: 0, decisions: 0 };
async function coalesced(tag: string): Promise<Phase> {
  const ids = accounts(tag);
  const capturePrefix = "capture:{acct:capture}";
  const numKeys = Number(template[2]);
  let batch: { keys: string[]; args: string[]; done: (allowed: boolean) => void }[] = [];
  const flush = () => {
    const sent = batch;
    batch = [];
    coalescedCalls.calls++;
    coalescedCalls.decisions += sent.length;
    const keys = sent.flatMap((d) => d.keys);
    const argv = [String(sent.length), ...sent.flatMap((d) => [String(d.keys.length), String(d.args.length)]), ...sent.flatMap((d) => d.args)];
    void (io.evalsha(coalescedSha, keys.length, ...keys, ...argv) as Promise<number[][]>).then((replies) => {
      for (let i = 0; i < sent.length; i++) sent[i]!.done(replies[i]![0] === 1);
    });
  };
  return measure(
    (i) =>
      new Promise<boolean>((done) => {
        const id = `{${ids[i % ACCOUNTS]!}}`;
        const command = template.map((a) => a.replace(capturePrefix, `bench-coalesced:${id}`));
        if (batch.length === 0) setImmediate(flush);
        batch.push({ keys: command.slice(3, 3 + numKeys), args: command.slice(3 + numKeys), done });
      }),
  );
}
const coalescedPhase = await coalesced("coalesced");

// ── 3. the peer ─────────────────────────────────────────────────────────────────────────────
const peerRedis = new IORedis(url, { enableOfflineQueue: false });
await once(peerRedis, "ready");
const peerLimiters = (prefix: string, l: Limits) =>
  [
    { name: "burst", points: l.burst, duration: 1 },
    { name: "minute", points: l.perMinute, duration: 60 },
    { name: "endpoint:oib", points: l.endpoints?.oib ?? 300, duration: 60 },
    { name: "day", points: l.perDay, duration: 86_400 },
  ].map(({ name, points, duration }) => new RateLimiterRedis({ storeClient: peerRedis, keyPrefix: `${prefix}:${name}`, points, duration }));
const peerUnion = new RateLimiterUnion(...peerLimiters("bench-peer", business));
{
  const ids = accounts("peer-warm");
  for (let i = 0; i < 2_000; i++) await peerUnion.consume(ids[i % ids.length]!);
}
const peerIds = accounts("peer");
const peer = await measure(async (i) =>
  peerUnion.consume(peerIds[i % ACCOUNTS]!).then(
    () => true,
    () => false,
  ),
);

// ── 4. memory per active account ────────────────────────────────────────────────────────────
const PLAN_ROWS: { plan: string; limits: Limits; accounts: number }[] = [
  { plan: "Sandbox", limits: PLANS.SANDBOX, accounts: 200 },
  { plan: "Starter", limits: PLANS.STARTER, accounts: 200 },
  { plan: "Business", limits: PLANS.BUSINESS, accounts: 200 },
  { plan: "Enterprise (10,000/min)", limits: { burst: 1_000, perMinute: 10_000, perDay: 5_000_000, endpoints: { oib: 10_000 } }, accounts: 20 },
  { plan: "Enterprise (200,000/min)", limits: { burst: 20_000, perMinute: 200_000, perDay: 100_000_000, endpoints: { oib: 200_000 } }, accounts: 5 },
];
async function usedMemory(): Promise<number> {
  const info = await io.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}
interface MemoryRow {
  plan: string;
  fiskalBytes?: number;
  peerBytes: number;
}
const memory: MemoryRow[] = [];
for (const row of CALLGRIND ? [] : PLAN_ROWS) {
  const tag = `mem-${row.plan.replace(/\W+/g, "")}`;
  await io.flushall();
  let fiskalBytes: number | undefined;
  if (new Engine(new Redis(requester), "probe").charge) {
    const before = await usedMemory();
    // a minute at the account's limit, in 100 steps over 60 s of a test clock
    let now = Date.now();
    const clocked = new Engine(new Redis(requester), `bench-mem:${tag}`, { testClock: () => now });
    for (let step = 0; step < 100; step++) {
      now += 600;
      // the minute's limit, evenly: every window as full as an account at its limit keeps it
      const count = Math.floor(((step + 1) * row.limits.perMinute) / 100) - Math.floor((step * row.limits.perMinute) / 100);
      if (count === 0) continue;
      await Promise.all(
        Array.from({ length: row.accounts }, (_, a) => clocked.charge!({ identity: `acct:${tag}-${a}`, limits: row.limits, endpoint: "oib" }, count)),
      );
    }
    fiskalBytes = Math.round(((await usedMemory()) - before) / row.accounts);
    await io.flushall();
  }
  const before = await usedMemory();
  const union = new RateLimiterUnion(...peerLimiters(`bench-peer-mem-${tag}`, row.limits));
  await Promise.all(Array.from({ length: row.accounts }, (_, a) => union.consume(`acct:${tag}-${a}`).catch(() => undefined)));
  const peerBytes = Math.round(((await usedMemory()) - before) / row.accounts);
  memory.push({ plan: row.plan, fiskalBytes, peerBytes });
}

await requester.close();
peerRedis.disconnect();
io.disconnect();
stopServer();

const perCore = (us: number) => Math.round(1e6 / us);
const result = {
  accounts: ACCOUNTS,
  decisionsPerPhase: DECISIONS,
  concurrency: CONCURRENCY,
  limitsSrc: path.relative(path.join(here, ".."), src),
  fiskal,
  fiskalRawPerCommandWrite: perCommand,
  fiskalRawPerTickWrite: perTick,
  fiskalCoalesced: { ...coalescedPhase, decisionsPerCall: round(coalescedCalls.decisions / coalescedCalls.calls) },
  peer,
  ratioRedisCpuFiskalToPeer: round(fiskal.redisCpuUsPerDecision / peer.redisCpuUsPerDecision),
  ratioCommandUsFiskalToPeer: round(fiskal.commandUsPerDecision / peer.commandUsPerDecision),
  decisionsPerRedisCore: { fiskal: perCore(fiskal.redisCpuUsPerDecision), peer: perCore(peer.redisCpuUsPerDecision) },
  memoryPerActiveAccount: memory,
  budgetUsPerDecision: BUDGET_US,
};
const table = [
  `Fiskal EVALSHA µs/call ${fiskal.evalshaUsPerCall} (budget ≤ ${BUDGET_US}); commands µs/decision ${fiskal.commandUsPerDecision}; Redis CPU µs/decision ${fiskal.redisCpuUsPerDecision}; refused ${fiskal.refused}`,
  `raw, a write per command: Redis CPU µs/decision ${perCommand.redisCpuUsPerDecision}; a write per tick: ${perTick.redisCpuUsPerDecision}` +
    (CALLGRIND ? `; instructions per decision ${perCommand.instructionsPerDecision} and ${perTick.instructionsPerDecision}` : ""),
  `coalesced, a tick's decisions in one call (${result.fiskalCoalesced.decisionsPerCall} per call): µs per decision ${coalescedPhase.commandUsPerDecision}; Redis CPU µs/decision ${coalescedPhase.redisCpuUsPerDecision}` +
    (CALLGRIND ? `; instructions per decision ${coalescedPhase.instructionsPerDecision}` : ""),
  fiskal.instructionsPerDecision ? `instructions per decision (callgrind): Fiskal ${fiskal.instructionsPerDecision}, peer ${peer.instructionsPerDecision}` : "",
  `peer (rate-limiter-flexible, 4 windows): commands µs/decision ${peer.commandUsPerDecision}; Redis CPU µs/decision ${peer.redisCpuUsPerDecision}; refused ${peer.refused}`,
  `decisions/s of one Redis core: Fiskal ${result.decisionsPerRedisCore.fiskal}, peer ${result.decisionsPerRedisCore.peer}`,
  ...memory.map((m) => `memory per active account, ${m.plan}: Fiskal ${m.fiskalBytes ?? "—"} B, peer ${m.peerBytes} B`),
].filter(Boolean);
process.stderr.write(table.join("\n") + "\n");
process.stdout.write(JSON.stringify(result) + "\n");
const over = fiskal.refused > 0 || coalescedPhase.refused > 0 || (!CALLGRIND && (fiskal.evalshaUsPerCall === undefined || fiskal.evalshaUsPerCall > BUDGET_US));
process.exit(over ? 1 : 0);
