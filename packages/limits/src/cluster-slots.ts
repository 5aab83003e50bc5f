/**
 * The slot map of a Redis Cluster requester (cluster-requester.ts): which master serves which
 * slot, and one RedisRequester (one pipelined RESP connection) per node.
 *
 * - The slot map comes from `CLUSTER SLOTS`, asked of the known masters, then of the seed nodes.
 * - `shardOf(key)` names the master serving a key's slot, so the limiter can degrade per shard.
 * - It is reloaded in the background (`scheduleRefresh`, at most every MIN_REFRESH_INTERVAL_MS)
 *   after a `MOVED`, a `CLUSTERDOWN`, a slot no master serves, and connection failures, so a
 *   failover is picked up.
 * - A node that no longer serves slots is retired: closed once the commands already sent to it are
 *   answered or timed out.
 */
import type tls from "node:tls";
import { keySlot, SLOT_COUNT } from "./cluster-keys.ts";
import { nodeId, type ClusterNodeAddress, type ClusterTarget } from "./cluster-url.ts";
import { createRedisRequester, type RedisRequester, type RedisRequesterOptions } from "./redis-requester.ts";
import type { Reply } from "./resp.ts";

/** the slot map is reloaded at most this often in the background */
const MIN_REFRESH_INTERVAL_MS = 250;

const noop = (): void => {};

export const closedError = (): Error => new Error("the Redis requester is closed");

export interface ClusterNode {
  /** "host:port" */
  id: string;
  host: string;
  port: number;
  req: RedisRequester;
  /** set until the first connection attempt ends: calls for a new node wait for it, not for later ones */
  opening: Promise<void> | undefined;
}

export interface SlotMapOptions {
  /** the store timeout: each node's requester fails a command unanswered for this long */
  timeoutMs: number;
  /** extra TLS settings for rediss+cluster:// (e.g. `ca`), used for every node */
  tls?: tls.ConnectionOptions;
  /** opens a node's requester: createRedisRequester, unless a test stands in for the nodes */
  connect?: (url: string, timeoutMs: number, opts: RedisRequesterOptions) => RedisRequester;
}

export class SlotMap {
  /** slot → owning master; undefined until the first CLUSTER SLOTS answer */
  private owners: (ClusterNode | undefined)[] | undefined;
  private masterNodes: ClusterNode[] = [];
  /** every node in use, by id */
  private readonly pool = new Map<string, ClusterNode>();
  private readonly retired = new Set<ClusterNode>();
  private refreshing: Promise<void> | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private lastRefresh = -Infinity;
  private isClosed = false;
  private lastLoadError: string | undefined;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private readonly userinfo: string;
  private readonly connect: NonNullable<SlotMapOptions["connect"]>;

  constructor(
    private readonly target: ClusterTarget,
    private readonly opts: SlotMapOptions,
  ) {
    this.timeoutMs = opts.timeoutMs;
    this.connectTimeoutMs = Math.max(opts.timeoutMs * 5, 500);
    this.userinfo =
      target.password === undefined ? "" : `${encodeURIComponent(target.username ?? "")}:${encodeURIComponent(target.password)}@`;
    this.connect = opts.connect ?? createRedisRequester;
  }

  /** whether a CLUSTER SLOTS answer has been applied */
  get known(): boolean {
    return this.owners !== undefined;
  }

  /** the masters of the current slot map */
  get masters(): readonly ClusterNode[] {
    return this.masterNodes;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** why the last reload of the slot map failed, until one succeeds */
  get loadError(): string | undefined {
    return this.lastLoadError;
  }

  /** The master serving `slot` by the current slot map. */
  ownerOf(slot: number): ClusterNode | undefined {
    return this.owners?.[slot];
  }

  /** A master that looks healthy, else the first. */
  anyMaster(): ClusterNode | undefined {
    return this.masterNodes.find((n) => n.req.lastError() === undefined) ?? this.masterNodes[0];
  }

  /** The master serving `key`'s slot ("host:port"), or `slot:<n>` when none does. */
  shardOf(key: string): string {
    const slot = keySlot(key);
    return this.owners?.[slot]?.id ?? `slot:${slot}`;
  }

  /** A `MOVED` reply's news: `slot` is served by `node` now (ignored until the map is known, or for a slot out of range). */
  moved(slot: number, node: ClusterNode): void {
    if (this.owners && Number.isInteger(slot) && slot >= 0 && slot < SLOT_COUNT) this.owners[slot] = node;
  }

  /** The node at host:port, connecting to it the first time it is named. */
  nodeAt(host: string, port: number): ClusterNode {
    const id = nodeId(host, port);
    const known = this.pool.get(id);
    if (known) return known;
    const url = `${this.target.tls ? "rediss" : "redis"}://${this.userinfo}${id}`;
    const req = this.connect(url, this.timeoutMs, { tls: this.opts.tls });
    const node: ClusterNode = { id, host, port, req, opening: undefined };
    node.opening = req
      .ready(this.connectTimeoutMs)
      .then(noop, noop)
      .finally(() => {
        node.opening = undefined;
      });
    this.pool.set(id, node);
    return node;
  }

  /** A node that no longer serves slots; closed once the commands already sent to it are answered or timed out. */
  private retire(node: ClusterNode): void {
    this.pool.delete(node.id);
    this.retired.add(node);
    const timer = setTimeout(() => {
      this.retired.delete(node);
      void node.req.close();
    }, this.connectTimeoutMs + this.timeoutMs);
    timer.unref();
  }

  /** Makes a `CLUSTER SLOTS` reply, asked of `from`, the slot map; throws (changing nothing) if it names no slot. */
  apply(reply: Reply, from: ClusterNode): void {
    if (!Array.isArray(reply)) throw new Error("unexpected reply to CLUSTER SLOTS");
    const table = new Array<ClusterNode | undefined>(SLOT_COUNT);
    const found = new Map<string, ClusterNode>();
    for (const range of reply) {
      if (!Array.isArray(range) || range.length < 3) continue;
      const [start, end, master] = range;
      if (typeof start !== "number" || typeof end !== "number" || !Array.isArray(master)) continue;
      // an unknown endpoint ("" or "?") means: the address we asked
      const host = typeof master[0] === "string" && master[0] !== "" && master[0] !== "?" ? master[0] : from.host;
      const port = Number(master[1]);
      if (!Number.isInteger(port) || port < 1 || port > 65_535) continue;
      const node = this.nodeAt(host, port);
      found.set(node.id, node);
      for (let s = Math.max(0, start); s <= end && s < SLOT_COUNT; s++) table[s] = node;
    }
    if (found.size === 0) throw new Error(`${from.id} reports no slots assigned in the cluster`);
    this.owners = table;
    this.masterNodes = [...found.values()];
    for (const node of [...this.pool.values()]) if (!found.has(node.id)) this.retire(node);
  }

  private async load(): Promise<void> {
    // masters that look healthy first, then the others, then the seed nodes
    const healthy = (n: ClusterNode) => (n.req.lastError() === undefined ? 0 : 1);
    const candidates: ClusterNodeAddress[] = [...this.masterNodes].sort((a, b) => healthy(a) - healthy(b));
    for (const seed of this.target.nodes) {
      if (!candidates.some((c) => c.host === seed.host && c.port === seed.port)) candidates.push(seed);
    }
    const errors: string[] = [];
    for (const { host, port } of candidates) {
      if (this.isClosed) throw closedError();
      const node = this.nodeAt(host, port);
      try {
        if (node.opening) await node.opening;
        this.apply(await node.req.send(["CLUSTER", "SLOTS"]), node);
        this.lastLoadError = undefined;
        return;
      } catch (err) {
        errors.push(`${node.id}: ${(err as Error).message}`);
      }
    }
    this.lastLoadError = `no Redis Cluster node answered CLUSTER SLOTS (${errors.join("; ")})`;
    throw new Error(this.lastLoadError);
  }

  /** Reloads the slot map now (or joins the reload under way). */
  refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = this.load().finally(() => {
        this.refreshing = undefined;
        this.lastRefresh = performance.now();
      });
      this.refreshing.catch(noop);
    }
    return this.refreshing;
  }

  /** Reloads the slot map in the background, at most every MIN_REFRESH_INTERVAL_MS. */
  scheduleRefresh(): void {
    if (this.isClosed || this.refreshing || this.refreshTimer) return;
    const wait = this.lastRefresh + MIN_REFRESH_INTERVAL_MS - performance.now();
    if (wait <= 0) {
      void this.refresh().catch(noop);
      return;
    }
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (!this.isClosed) void this.refresh().catch(noop);
    }, wait);
    this.refreshTimer.unref();
  }

  /** The first master's connection error, else why the slot map could not be loaded. */
  lastError(): string | undefined {
    for (const node of this.masterNodes) {
      const err = node.req.lastError();
      if (err) return `Redis Cluster node ${node.id}: ${err}`;
    }
    return this.lastLoadError;
  }

  /** Resolves once the slot map is known and every master answers PING; rejects after `ms` or when a master is unreachable. */
  ready(ms: number): Promise<void> {
    if (this.isClosed) return Promise.reject(closedError());
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const why =
          this.lastLoadError ?? this.masterNodes.map((n) => n.req.lastError() && `${n.id}: ${n.req.lastError()}`).find(Boolean);
        reject(new Error(`Redis Cluster not ready within ${ms} ms${why ? `: ${why}` : ""}`));
      }, ms);
    });
    const work = (async () => {
      if (!this.owners) await this.refresh();
      await Promise.all(
        this.masterNodes.map(async (node) => {
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
  }

  /** Stops reloading and closes every node's connection. */
  async close(): Promise<void> {
    this.isClosed = true;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    const nodes = [...this.pool.values(), ...this.retired];
    this.pool.clear();
    this.retired.clear();
    this.masterNodes = [];
    await Promise.all(nodes.map((n) => n.req.close()));
  }
}
