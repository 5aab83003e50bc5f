/**
 * The @upstash/redis `Requester` for a Redis Cluster (`redis+cluster://` / `rediss+cluster://`):
 * a drop-in for createRedisRequester, with the same fail-fast semantics, routing each command to
 * the master that owns its slot.
 *
 * Built on the project's own per-node RedisRequester (one pipelined RESP connection per master)
 * rather than on ioredis' `Cluster`, because the limiter must never run a decision twice, and
 * ioredis decides on its own when to re-send: a command whose connection closed is re-sent after
 * `retryDelayOnFailover`, node connections re-send unanswered commands after a reconnect
 * (`autoResendUnfulfilledCommands`) or queue them while connecting, and TRYAGAIN/CLUSTERDOWN
 * retries sit in a delay queue that does not know the caller's `commandTimeout` already rejected.
 * Each can run a script after the caller fell back to the local limiter. Here the rules are few:
 *
 * - A keyed command goes to the master owning the slot of its first key (EVAL/EVALSHA: the first
 *   key after numkeys; the limiter's keys share one hash tag, so a script's keys share one slot).
 *   Keyless commands go to any master, except PING, SCRIPT, FLUSHDB and FLUSHALL, which go to
 *   every master: PING answers PONG only if **every** master answers, so the limiter returns from
 *   its fallback only when every account's slot is reachable again.
 * - A command is sent again only after a reply proving it did not run, and only while its caller
 *   still waits (`timeoutMs` from the call): `MOVED` (slot map entry updated, full map reloaded in
 *   the background, command sent to the new owner), `ASK` (`ASKING` and the command to the
 *   importing node, in one write on one connection), `TRYAGAIN` (a migrating slot with the
 *   call's keys split between two masters: tried again every RETRY_DELAY_MS for as long as the
 *   caller waits), `CLUSTERDOWN` (at most MAX_RETRIES more tries, RETRY_DELAY_MS apart) and
 *   `NOSCRIPT` (the script body with EVAL). At most MAX_REDIRECTIONS `MOVED` per call; `ASK` is
 *   bounded by the deadline, like `TRYAGAIN`.
 * - `shardOf(key)` names the master serving a key's slot, so the limiter can degrade per shard.
 * - Anything else fails the call at once: a closed or refused connection, a node that does not
 *   answer within `timeoutMs` (the node's connection is closed, as with a single Redis), or an
 *   error reply, which reaches @upstash/redis as `{ error: message }`. No offline queue: a command
 *   for a node that is down is refused, not kept. Connection failures reload the slot map in the
 *   background, so a failover is picked up.
 * - The slot map comes from `CLUSTER SLOTS`, asked of the known masters, then of the seed nodes.
 * - Upstash's script commands (the shebang Redis 7 refuses, NOSCRIPT, SCRIPT LOAD) are handled in
 *   upstash-scripts.ts, shared with redis-requester.ts.
 */
import net from "node:net";
import type tls from "node:tls";
import { createRedisRequester, type RedisRequester } from "./redis-requester.ts";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";
import { upstashCommands, upstashRequest, type StrippedScript } from "./upstash-scripts.ts";

const SLOT_COUNT = 16_384;
/** redirections (MOVED, ASK) one call may follow */
const MAX_REDIRECTIONS = 5;
/** further tries of one call after CLUSTERDOWN (TRYAGAIN is retried for as long as the caller waits) */
const MAX_RETRIES = 3;
const RETRY_DELAY_MS = 10;
/** the slot map is reloaded at most this often in the background */
const MIN_REFRESH_INTERVAL_MS = 250;

const noop = (): void => {};

// ---------------------------------------------------------------------------------------------
// URL

interface ClusterNodeAddress {
  host: string;
  port: number;
}

export interface ClusterTarget {
  /** seed nodes: the slot map is asked of them */
  nodes: ClusterNodeAddress[];
  username?: string;
  password?: string;
  tls: boolean;
}

const URL_SHAPE = "redis+cluster://[user:password@]host:port,host:port,… (or rediss+cluster:// for TLS)";

/** Parses `redis+cluster://[user:password@]host:port,host:port,…` (or `rediss+cluster://`). */
export function parseClusterUrl(url: string): ClusterTarget {
  const scheme = /^(rediss?)\+cluster:\/\//i.exec(url);
  if (!scheme) {
    const shown = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? "(no scheme)";
    throw new Error(`Redis Cluster URL must look like ${URL_SHAPE}; got ${shown}//…`);
  }
  let rest = url.slice(scheme[0].length);
  const tail = rest.search(/[/?#]/);
  if (tail !== -1) {
    const after = rest.slice(tail);
    if (!/^\/?(0)?$/.test(after)) {
      throw new Error(`Redis Cluster URL: a cluster has only database 0, and takes no path or query (got "${after}")`);
    }
    rest = rest.slice(0, tail);
  }
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf("@");
  if (at !== -1) {
    const userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = userinfo.indexOf(":");
    try {
      const user = decodeURIComponent(colon === -1 ? userinfo : userinfo.slice(0, colon));
      username = user === "" ? undefined : user;
      if (colon !== -1) password = decodeURIComponent(userinfo.slice(colon + 1));
    } catch {
      throw new Error("Redis Cluster URL: the user name or password is not valid percent-encoding");
    }
  }
  if (rest === "") throw new Error(`Redis Cluster URL: name at least one node, as in ${URL_SHAPE}`);
  const nodes = rest.split(",").map((part) => parseAddress(part));
  return { nodes, username, password, tls: scheme[1]!.toLowerCase() === "rediss" };
}

function parseAddress(part: string): ClusterNodeAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+))(?::(\d+))?$/.exec(part);
  if (!m) {
    throw new Error(
      part === "" ? "Redis Cluster URL: empty node between commas" : `Redis Cluster URL: invalid node "${part}" (expected host:port)`,
    );
  }
  const port = m[3] === undefined ? 6379 : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`Redis Cluster URL: invalid port in "${part}"`);
  return { host: (m[1] ?? m[2])!, port };
}

// ---------------------------------------------------------------------------------------------
// slots

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

/** The key that decides where `args` (command first) goes, if it has one. */
function routingKey(args: readonly Arg[]): string | undefined {
  const name = String(args[0]).toLowerCase();
  if (SCRIPT_COMMANDS.has(name)) return Number(args[2]) > 0 && args[3] !== undefined ? String(args[3]) : undefined;
  if (KEYLESS.has(name) || EVERY_MASTER.has(name)) return undefined;
  // BITOP op destkey …, OBJECT ENCODING key, MEMORY USAGE key
  const at = name === "bitop" || name === "object" || name === "memory" ? 2 : 1;
  return args[at] === undefined ? undefined : String(args[at]);
}

// ---------------------------------------------------------------------------------------------
// requester

export interface ClusterRequesterOptions {
  /** extra TLS settings for rediss+cluster:// (e.g. `ca`), used for every node */
  tls?: tls.ConnectionOptions;
}

interface Node {
  /** "host:port" */
  id: string;
  host: string;
  port: number;
  req: RedisRequester;
  /** set until the first connection attempt ends: calls for a new node wait for it, not for later ones */
  opening: Promise<void> | undefined;
}

interface Call {
  args: Arg[];
  /** sent instead of `args` after a NOSCRIPT reply: EVAL with the script body */
  fallback: Arg[] | undefined;
  slot: number | undefined;
  /** performance.now() after which the caller has been told the call failed */
  deadline: number;
  redirects: number;
  retries: number;
  /** the slot's last TRYAGAIN: the answer if the deadline comes while the call waits to be tried again */
  tryAgain: Error | undefined;
  done: boolean;
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
}

const nodeId = (host: string, port: number): string => (net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`);

export interface ClusterRequester extends RedisRequester {
  /**
   * The master that serves `key`'s slot by the current slot map ("host:port"), or `slot:<n>` when
   * no master serves it: the limiter degrades per shard, so that one lost master leaves the
   * accounts on the others exact.
   */
  shardOf(key: string): string;
}

export function createClusterRequester(url: string, timeoutMs: number, opts: ClusterRequesterOptions = {}): ClusterRequester {
  const target = parseClusterUrl(url);
  const connectTimeoutMs = Math.max(timeoutMs * 5, 500);
  const closedError = () => new Error("the Redis requester is closed");

  let closed = false;
  let lastError: string | undefined;
  /** slot → owning master; undefined until the first CLUSTER SLOTS answer */
  let slots: (Node | undefined)[] | undefined;
  let masters: Node[] = [];
  const pool = new Map<string, Node>();
  const retired = new Set<Node>();
  /** calls waiting for an answer, oldest first (all have the same timeout, so deadlines ascend) */
  const calls = new Set<Call>();

  const userinfo =
    target.password === undefined ? "" : `${encodeURIComponent(target.username ?? "")}:${encodeURIComponent(target.password)}@`;

  function nodeAt(host: string, port: number): Node {
    const id = nodeId(host, port);
    const known = pool.get(id);
    if (known) return known;
    const req = createRedisRequester(`${target.tls ? "rediss" : "redis"}://${userinfo}${id}`, timeoutMs, { tls: opts.tls });
    const node: Node = { id, host, port, req, opening: undefined };
    node.opening = req.ready(connectTimeoutMs).then(noop, noop).finally(() => {
      node.opening = undefined;
    });
    pool.set(id, node);
    return node;
  }

  /** A node that no longer serves slots; closed once the commands already sent to it are answered or timed out. */
  function retire(node: Node): void {
    pool.delete(node.id);
    retired.add(node);
    const timer = setTimeout(() => {
      retired.delete(node);
      void node.req.close();
    }, connectTimeoutMs + timeoutMs);
    timer.unref();
  }

  // --- slot map ---------------------------------------------------------------------------

  let refreshing: Promise<void> | undefined;
  let refreshTimer: NodeJS.Timeout | undefined;
  let lastRefresh = -Infinity;

  function applySlots(reply: Reply, from: Node): void {
    if (!Array.isArray(reply)) throw new Error("unexpected reply to CLUSTER SLOTS");
    const table = new Array<Node | undefined>(SLOT_COUNT);
    const found = new Map<string, Node>();
    for (const range of reply) {
      if (!Array.isArray(range) || range.length < 3) continue;
      const [start, end, master] = range;
      if (typeof start !== "number" || typeof end !== "number" || !Array.isArray(master)) continue;
      // an unknown endpoint ("" or "?") means: the address we asked
      const host = typeof master[0] === "string" && master[0] !== "" && master[0] !== "?" ? master[0] : from.host;
      const port = Number(master[1]);
      if (!Number.isInteger(port) || port < 1 || port > 65_535) continue;
      const node = nodeAt(host, port);
      found.set(node.id, node);
      for (let s = Math.max(0, start); s <= end && s < SLOT_COUNT; s++) table[s] = node;
    }
    if (found.size === 0) throw new Error(`${from.id} reports no slots assigned in the cluster`);
    slots = table;
    masters = [...found.values()];
    for (const node of [...pool.values()]) if (!found.has(node.id)) retire(node);
  }

  async function loadSlots(): Promise<void> {
    // masters that look healthy first, then the others, then the seed nodes
    const healthy = (n: Node) => (n.req.lastError() === undefined ? 0 : 1);
    const candidates: ClusterNodeAddress[] = [...masters].sort((a, b) => healthy(a) - healthy(b));
    for (const seed of target.nodes) {
      if (!candidates.some((c) => c.host === seed.host && c.port === seed.port)) candidates.push(seed);
    }
    const errors: string[] = [];
    for (const { host, port } of candidates) {
      if (closed) throw closedError();
      const node = nodeAt(host, port);
      try {
        if (node.opening) await node.opening;
        applySlots(await node.req.send(["CLUSTER", "SLOTS"]), node);
        lastError = undefined;
        return;
      } catch (err) {
        errors.push(`${node.id}: ${(err as Error).message}`);
      }
    }
    lastError = `no Redis Cluster node answered CLUSTER SLOTS (${errors.join("; ")})`;
    throw new Error(lastError);
  }

  function refresh(): Promise<void> {
    if (!refreshing) {
      refreshing = loadSlots().finally(() => {
        refreshing = undefined;
        lastRefresh = performance.now();
      });
      refreshing.catch(noop);
    }
    return refreshing;
  }

  /** Reloads the slot map in the background, at most every MIN_REFRESH_INTERVAL_MS. */
  function scheduleRefresh(): void {
    if (closed || refreshing || refreshTimer) return;
    const wait = lastRefresh + MIN_REFRESH_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      void refresh().catch(noop);
      return;
    }
    refreshTimer = setTimeout(() => {
      refreshTimer = undefined;
      if (!closed) void refresh().catch(noop);
    }, wait);
    refreshTimer.unref();
  }

  // --- calls ------------------------------------------------------------------------------

  function finish(call: Call, err: Error | undefined, reply?: Reply): void {
    if (call.done) return;
    call.done = true;
    calls.delete(call);
    if (err) call.reject(err);
    else call.resolve(reply ?? null);
  }

  function anyMaster(): Node | undefined {
    return masters.find((n) => n.req.lastError() === undefined) ?? masters[0];
  }

  /**
   * The error of a call whose deadline came: a slot split by a migration answered TRYAGAIN, and a
   * retry that a busy host runs late is still that split (the limiter then falls back for that slot
   * alone), not a master that stopped answering.
   */
  function lateError(call: Call): Error {
    return call.tryAgain ?? new Error(`Redis Cluster did not answer within ${timeoutMs} ms`);
  }

  /** Sends the call to `to` (by default the slot's owner) unless its caller has stopped waiting. */
  function dispatch(call: Call, to?: Node, asking = false): void {
    if (call.done) return;
    if (closed) return finish(call, closedError());
    if (performance.now() >= call.deadline) return finish(call, lateError(call));
    const node = to ?? (call.slot === undefined ? anyMaster() : slots?.[call.slot]);
    if (!node) {
      scheduleRefresh();
      return finish(
        call,
        new Error(
          slots
            ? `no Redis Cluster node serves slot ${call.slot}`
            : `the Redis Cluster slot map is not known yet${lastError ? `: ${lastError}` : ""}`,
        ),
      );
    }
    if (node.opening) {
      // a node first seen in a redirection or a new slot map: nothing has been sent yet
      void node.opening.then(() => dispatch(call, node, asking));
      return;
    }
    let sent: Promise<Reply>;
    if (asking) {
      // both in the same turn, so one write on one connection: ASKING applies to the next command only
      node.req.send(["ASKING"]).catch(noop);
      sent = node.req.send(call.args);
    } else {
      sent = node.req.send(call.args);
    }
    sent.then(
      (reply) => finish(call, undefined, reply),
      (err: Error) => onError(call, node, asking, err),
    );
  }

  function onError(call: Call, node: Node, asking: boolean, err: Error): void {
    if (call.done) return;
    if (!(err instanceof RedisReplyError)) {
      // refused, lost or unanswered: the command may have run, so it is never sent again
      scheduleRefresh();
      return finish(call, new Error(`Redis Cluster node ${node.id}: ${err.message}`));
    }
    const [code, slotText, address] = err.message.split(" ");
    switch (code) {
      case "MOVED":
      case "ASK": {
        const to = address === undefined ? undefined : redirectTarget(address, node.host);
        if (!to) return finish(call, err);
        // an ASK is one step of a migration in progress (ASK, then TRYAGAIN while the slot's keys are
        // split, then ASK again…): bounded by the caller's deadline, like TRYAGAIN; MOVED loops are counted
        if (code === "MOVED" && ++call.redirects > MAX_REDIRECTIONS) {
          return finish(call, new RedisReplyError(`too many Redis Cluster redirections; last: ${err.message}`));
        }
        const next = nodeAt(to.host, to.port);
        if (code === "ASK") return dispatch(call, next, true);
        const slot = Number(slotText);
        if (slots && Number.isInteger(slot) && slot >= 0 && slot < SLOT_COUNT) slots[slot] = next;
        scheduleRefresh();
        return dispatch(call, next);
      }
      case "TRYAGAIN":
        // the slot is being migrated and this call's keys are split between two masters: it ran
        // nowhere, and it will run once the migration moves the rest. Tried again while the caller
        // waits; the last TRYAGAIN is the answer if the deadline comes first.
        call.tryAgain = err;
        if (performance.now() + RETRY_DELAY_MS >= call.deadline) return finish(call, err);
        setTimeout(() => dispatch(call), RETRY_DELAY_MS).unref();
        return;
      case "CLUSTERDOWN": {
        // the slot has no master (a master lost, or the whole cluster down with
        // cluster-require-full-coverage yes): a few quick tries across a failover, then the error
        if (++call.retries > MAX_RETRIES) return finish(call, err);
        scheduleRefresh();
        setTimeout(() => dispatch(call), RETRY_DELAY_MS).unref();
        return;
      }
      case "NOSCRIPT":
        if (call.fallback) {
          call.args = call.fallback;
          call.fallback = undefined;
          return dispatch(call, node, asking);
        }
    }
    finish(call, err);
  }

  function redirectTarget(address: string, replyingHost: string): ClusterNodeAddress | undefined {
    const colon = address.lastIndexOf(":");
    const port = Number(address.slice(colon + 1));
    if (colon === -1 || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
    const host = address.slice(0, colon).replace(/^\[|\]$/g, "");
    return { host: host === "" || host === "?" ? replyingHost : host, port };
  }

  function newCall(args: Arg[], resolve: (r: Reply) => void, reject: (e: Error) => void, fallback?: Arg[]): Call {
    const key = routingKey(args);
    const call: Call = {
      args,
      fallback,
      slot: key === undefined ? undefined : keySlot(key),
      deadline: performance.now() + timeoutMs,
      redirects: 0,
      retries: 0,
      tryAgain: undefined,
      done: false,
      resolve,
      reject,
    };
    calls.add(call);
    return call;
  }

  /** One command on every master; the first master's reply, or the first failure. */
  function everyMaster(args: Arg[]): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const call = newCall(args, resolve, reject);
      const run = (): void => {
        if (call.done) return;
        if (masters.length === 0) return finish(call, new Error("the Redis Cluster slot map is not known yet"));
        const replies = masters.map((node) =>
          // a node still connecting gets the command only if the caller is still waiting
          (node.opening ? node.opening.then(() => (call.done ? null : node.req.send(args))) : node.req.send(args)).catch((err: Error) => {
            if (!(err instanceof RedisReplyError)) scheduleRefresh();
            throw err instanceof RedisReplyError ? err : new Error(`Redis Cluster node ${node.id}: ${err.message}`);
          }),
        );
        Promise.all(replies).then(
          (all) => finish(call, undefined, all[0]),
          (err: Error) => finish(call, err),
        );
      };
      if (slots) run();
      else refresh().then(run, (err: Error) => finish(call, err));
    });
  }

  // One timer for all calls; a node's own requester also closes a connection that stops answering.
  const watchdog = setInterval(
    () => {
      const now = performance.now();
      for (const call of calls) {
        if (call.deadline > now) break;
        finish(call, lateError(call));
      }
    },
    Math.max(5, Math.floor(timeoutMs / 4)),
  );
  watchdog.unref();

  refresh().catch(noop);

  function route(args: Arg[], fallback?: Arg[]): Promise<Reply> {
    if (closed) return Promise.reject(closedError());
    if (EVERY_MASTER.has(String(args[0]).toLowerCase())) return everyMaster(args);
    return new Promise<Reply>((resolve, reject) => dispatch(newCall(args, resolve, reject, fallback)));
  }

  const evalScript = (script: StrippedScript, args: readonly Arg[]): Promise<Reply> => {
    // args[0] is the hash or script Upstash sent; numkeys, keys and arguments go as they are
    const withSha: Arg[] = ["EVALSHA", ...args];
    withSha[1] = script.sha;
    const withBody: Arg[] = ["EVAL", ...args];
    withBody[1] = script.body;
    return route(withSha, withBody);
  };

  return {
    shardOf: (key) => {
      const slot = keySlot(key);
      return slots?.[slot]?.id ?? `slot:${slot}`;
    },
    send: (args) => route([...args]),
    lastError: () => {
      for (const node of masters) {
        const err = node.req.lastError();
        if (err) return `Redis Cluster node ${node.id}: ${err}`;
      }
      return lastError;
    },
    request: upstashRequest(upstashCommands({ evalScript, send: (args) => route(args) })),
    /** resolves once the slot map is known and every master answers PING; rejects after `ms` or when a master is unreachable */
    ready: (ms) => {
      if (closed) return Promise.reject(closedError());
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const why = lastError ?? masters.map((n) => n.req.lastError() && `${n.id}: ${n.req.lastError()}`).find(Boolean);
          reject(new Error(`Redis Cluster not ready within ${ms} ms${why ? `: ${why}` : ""}`));
        }, ms);
      });
      const work = (async () => {
        if (!slots) await refresh();
        await Promise.all(
          masters.map(async (node) => {
            try {
              await node.req.ready(ms);
              await node.req.send(["PING"]);
            } catch (err) {
              throw new Error(`Redis Cluster node ${node.id} unreachable: ${(err as Error).message}`);
            }
          }),
        );
      })();
      work.catch(noop);
      return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
    },
    close: async () => {
      closed = true;
      clearInterval(watchdog);
      if (refreshTimer) clearTimeout(refreshTimer);
      for (const call of [...calls]) finish(call, closedError());
      const nodes = [...pool.values(), ...retired];
      pool.clear();
      retired.clear();
      masters = [];
      await Promise.all(nodes.map((n) => n.req.close()));
    },
  };
}
