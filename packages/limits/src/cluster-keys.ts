/**
 * Where a command goes in a Redis Cluster (cluster-requester.ts):
 *
 * - A keyed command goes to the master owning the slot of its first key (EVAL/EVALSHA: the first
 *   key after numkeys; the limiter's keys share one hash tag, so a script's keys share one slot).
 *   Keyless commands go to any master, except PING, SCRIPT, FLUSHDB and FLUSHALL, which go to
 *   every master: PING answers PONG only if **every** master answers, so the limiter returns from
 *   its fallback only when every account's slot is reachable again.
 */
import type { Arg } from "./resp.ts";

export const SLOT_COUNT = 16_384;

const CRC16 = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 8;
    for (let j = 0; j < 8; j++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
    table[i] = c;
  }
  return table;
})();

/** The cluster slot of a key: CRC16 of its hash tag (the text inside the first `{…}`, if not empty), mod 16384. */
export function keySlot(key: string): number {
  const b = Buffer.from(key);
  let start = 0;
  let end = b.length;
  const open = b.indexOf(0x7b);
  if (open !== -1) {
    const close = b.indexOf(0x7d, open + 1);
    if (close > open + 1) {
      start = open + 1;
      end = close;
    }
  }
  let crc = 0;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[((crc >> 8) ^ b[i]!) & 0xff]!;
  return crc % SLOT_COUNT;
}

/** Commands without keys: they go to any master. */
const KEYLESS = new Set([
  "asking", "auth", "client", "cluster", "command", "config", "dbsize", "echo", "function", "hello", "info",
  "keys", "lastsave", "latency", "randomkey", "readonly", "readwrite", "role", "scan", "select", "slowlog",
  "time", "wait",
]);
/** Commands every master has to run. */
const EVERY_MASTER = new Set(["ping", "script", "flushdb", "flushall"]);
const SCRIPT_COMMANDS = new Set(["eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro"]);

/** Whether `args` (command first) has to run on every master. */
export const goesToEveryMaster = (args: readonly Arg[]): boolean => EVERY_MASTER.has(String(args[0]).toLowerCase());

/** The key that decides where `args` (command first) goes, if it has one. */
export function routingKey(args: readonly Arg[]): string | undefined {
  const name = String(args[0]).toLowerCase();
  if (SCRIPT_COMMANDS.has(name)) return Number(args[2]) > 0 && args[3] !== undefined ? String(args[3]) : undefined;
  if (KEYLESS.has(name) || EVERY_MASTER.has(name)) return undefined;
  // BITOP op destkey …, OBJECT ENCODING key, MEMORY USAGE key
  const at = name === "bitop" || name === "object" || name === "memory" ? 2 : 1;
  return args[at] === undefined ? undefined : String(args[at]);
}
