/**
 * Where a Lua decision's cost goes: what each building block of bench/redis-script.ts's script
 * costs Redis on its own, one script per block on a private `redis-server`, measured against a
 * script that only returns (an EVALSHA with one key), in instructions per call: redis-server runs
 * under valgrind's callgrind (2,000 calls of each, 10 in flight), so that the figures do not move
 * with the other tenants of a shared host (a block costs well under a µs, which `usec_per_call`
 * cannot resolve there). Prints one JSON line and a table on stderr.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import IORedis from "ioredis";

const CALLS = 2_000;
const HEADER = "x".repeat(288); // a Business account's header key: 8 + 7 slots of 40 bytes
const RING = "x".repeat(2_400); // its minute log: 300 entries of 8 bytes

/** [what it measures, script, extra keys, extra arguments]; every script gets KEYS[1] = the header key */
const BLOCKS: [string, string, string[], string[]][] = [
  ["EVALSHA that returns at once (1 key)", "return 1", [], []],
  ["+ 17 arguments (a Business decision has 5 keys and 13 arguments)", "return 1", ["{a}:h", "{a}:r", "{a}:r", "{a}:r"], Array.from({ length: 13 }, (_, i) => String(i * 1000))],
  ["+ TIME and its two numbers", "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000) return 1", [], []],
  ["+ GET of the 288-byte header", "local h = redis.call('GET', KEYS[1]) return 1", [], []],
  ["+ SET of the header with PX", "local h = redis.call('GET', KEYS[1]) redis.call('SET', KEYS[1], h, 'PX', 86400000) return 1", [], []],
  ["+ SETRANGE of one 8-byte entry (numeric offset)", "redis.call('SETRANGE', KEYS[2], 800, '12345678') return 1", ["{a}:r"], []],
  ["+ GETRANGE of 8 entries", "local v = redis.call('GETRANGE', KEYS[2], 800, 863) return 1", ["{a}:r"], []],
  ["+ PEXPIRE", "redis.call('PEXPIRE', KEYS[2], 130000) return 1", ["{a}:r"], []],
  ["+ struct.unpack of a 40-byte log slot", "local a, b, c, d, e, f, g = struct.unpack('<I4I4I4I4ddd', ARGV[1]) return 1", [], ["0123456789012345678901234567890123456789"]],
  ["+ struct.pack of a log slot", "local s = struct.pack('<I4I4I4I4ddd', 300, 120, 0, 4, 1.9e12, 1.9e12, 1.9e12) return 1", [], []],
  ["+ tonumber of an argument", "local n = tonumber(ARGV[1]) return 1", [], ["60000"]],
  ["+ a table of 15 fields (one window's state)", "local t = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 } return 1", [], []],
  ["+ a reply of 10 integers (a Business decision's)", "return { 1, 1900000000000, 49, 1000, 299, 60000, 299, 60000, 199999, 36000000 }", [], []],
];

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as net.AddressInfo).port;
  server.close();
  await once(server, "close");
  return port;
}
const port = await freePort();
const serverArgs = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
const dir = mkdtempSync(path.join(tmpdir(), "fiskal-lua-costs-"));
const server = spawn("valgrind", ["--tool=callgrind", `--callgrind-out-file=${dir}/out.%p`, "redis-server", ...serverArgs], { stdio: "ignore" });
process.on("exit", () => {
  if (server.exitCode === null) server.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
function accepts(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
for (let i = 0; !(await accepts()); i++) {
  if (i > 1_200) throw new Error(`redis-server did not start on port ${port}`);
  await new Promise((r) => setTimeout(r, 25));
}
const io = new IORedis(`redis://127.0.0.1:${port}`);
await io.set("{a}:h", HEADER);
await io.set("{a}:r", RING);

let dumps = 0;
/** callgrind's instructions since the last zeroing */
function instructions(): number {
  spawnSync("callgrind_control", ["-d", String(server.pid)]);
  dumps++;
  const file = readdirSync(dir).find((f) => f.endsWith(`.${dumps}`))!;
  return Number(/totals: (\d+)/.exec(readFileSync(path.join(dir, file), "utf8"))![1]);
}

const rows: { block: string; perCall: number; overEmpty?: number }[] = [];
for (const [block, script, keys, args] of BLOCKS) {
  const sha = (await io.script("LOAD", script)) as string;
  const call = () => io.evalsha(sha, 1 + keys.length, "{a}:h", ...keys, ...args);
  for (let i = 0; i < 200; i++) await call();
  spawnSync("callgrind_control", ["-z", String(server.pid)]);
  for (let i = 0; i < CALLS; i += 10) await Promise.all(Array.from({ length: 10 }, call));
  rows.push({ block, perCall: Math.round(instructions() / CALLS) });
}
const empty = rows[0]!.perCall;
const withArgs = rows[1]!.perCall;
// each block's own cost: its call less the call that only returns
for (const r of rows.slice(1)) r.overEmpty = r.perCall - empty;
io.disconnect();
const unit = "instructions";
process.stderr.write(rows.map((r) => `${r.block}: ${r.perCall} ${unit} per call${r.overEmpty !== undefined ? ` (${r.overEmpty} over the empty call)` : ""}`).join("\n") + "\n");
process.stdout.write(JSON.stringify({ unit, calls: CALLS, emptyCall: empty, withArguments: withArgs, blocks: rows }) + "\n");
process.exit(0);
