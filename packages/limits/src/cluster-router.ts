/**
 * The calls of a Redis Cluster requester (cluster-requester.ts): each sent to the master the slot
 * map (cluster-slots.ts) names for it, and sent again only by these rules:
 *
 * - A command is sent again only after a reply proving it did not run, and only while its caller
 *   still waits (`timeoutMs` from the call): `MOVED` (slot map entry updated, full map reloaded in
 *   the background, command sent to the new owner), `ASK` (`ASKING` and the command to the
 *   importing node, in one write on one connection), `TRYAGAIN` (a migrating slot with the
 *   call's keys split between two masters: tried again every RETRY_DELAY_MS for as long as the
 *   caller waits), `CLUSTERDOWN` (at most MAX_RETRIES more tries, RETRY_DELAY_MS apart) and
 *   `NOSCRIPT` (the script body with EVAL). At most MAX_REDIRECTIONS `MOVED` per call; `ASK` is
 *   bounded by the deadline, like `TRYAGAIN`.
 * - Anything else fails the call at once: a closed or refused connection, a node that does not
 *   answer within `timeoutMs` (the node's connection is closed, as with a single Redis), or an
 *   error reply, which reaches @upstash/redis as `{ error: message }`. No offline queue: a command
 *   for a node that is down is refused, not kept. Connection failures reload the slot map in the
 *   background, so a failover is picked up.
 */
import { goesToEveryMaster, keySlot, routingKey } from "./cluster-keys.ts";
import { closedError, type ClusterNode, type SlotMap } from "./cluster-slots.ts";
import type { ClusterNodeAddress } from "./cluster-url.ts";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";

/** redirections (MOVED, ASK) one call may follow */
const MAX_REDIRECTIONS = 5;
/** further tries of one call after CLUSTERDOWN (TRYAGAIN is retried for as long as the caller waits) */
const MAX_RETRIES = 3;
const RETRY_DELAY_MS = 10;

const noop = (): void => {};

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

/**
 * The node a `MOVED` or `ASK` reply names ("host:port", the host possibly in brackets); an unknown
 * host ("" or "?") means the node that replied. Undefined when the address cannot be read.
 */
export function redirectTarget(address: string, replyingHost: string): ClusterNodeAddress | undefined {
  const colon = address.lastIndexOf(":");
  const port = Number(address.slice(colon + 1));
  if (colon === -1 || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  const host = address.slice(0, colon).replace(/^\[|\]$/g, "");
  return { host: host === "" || host === "?" ? replyingHost : host, port };
}

export class ClusterRouter {
  /** calls waiting for an answer, oldest first (all have the same timeout, so deadlines ascend) */
  private readonly calls = new Set<Call>();
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly slots: SlotMap,
    private readonly timeoutMs: number,
  ) {
    // One timer for all calls; a node's own requester also closes a connection that stops answering.
    this.watchdog = setInterval(
      () => {
        const now = performance.now();
        for (const call of this.calls) {
          if (call.deadline > now) break;
          this.finish(call, this.lateError(call));
        }
      },
      Math.max(5, Math.floor(timeoutMs / 4)),
    );
    this.watchdog.unref();
  }

  /** One command (`fallback`: what to send instead after NOSCRIPT), to its slot's master or to every master. */
  route(args: Arg[], fallback?: Arg[]): Promise<Reply> {
    if (this.slots.closed) return Promise.reject(closedError());
    if (goesToEveryMaster(args)) return this.everyMaster(args);
    return new Promise<Reply>((resolve, reject) => this.dispatch(this.newCall(args, resolve, reject, fallback)));
  }

  /** Stops the watchdog and fails every call still waiting. */
  close(): void {
    clearInterval(this.watchdog);
    for (const call of [...this.calls]) this.finish(call, closedError());
  }

  private newCall(args: Arg[], resolve: (r: Reply) => void, reject: (e: Error) => void, fallback?: Arg[]): Call {
    const key = routingKey(args);
    const call: Call = {
      args,
      fallback,
      slot: key === undefined ? undefined : keySlot(key),
      deadline: performance.now() + this.timeoutMs,
      redirects: 0,
      retries: 0,
      tryAgain: undefined,
      done: false,
      resolve,
      reject,
    };
    this.calls.add(call);
    return call;
  }

  private finish(call: Call, err: Error | undefined, reply?: Reply): void {
    if (call.done) return;
    call.done = true;
    this.calls.delete(call);
    if (err) call.reject(err);
    else call.resolve(reply ?? null);
  }

  /**
   * The error of a call whose deadline came: a slot split by a migration answered TRYAGAIN, and a
   * retry that a busy host runs late is still that split (the limiter then falls back for that slot
   * alone), not a master that stopped answering.
   */
  private lateError(call: Call): Error {
    return call.tryAgain ?? new Error(`Redis Cluster did not answer within ${this.timeoutMs} ms`);
  }

  /** Sends the call to `to` (by default the slot's owner) unless its caller has stopped waiting. */
  private dispatch(call: Call, to?: ClusterNode, asking = false): void {
    if (call.done) return;
    if (this.slots.closed) return this.finish(call, closedError());
    if (performance.now() >= call.deadline) return this.finish(call, this.lateError(call));
    const node = to ?? (call.slot === undefined ? this.slots.anyMaster() : this.slots.ownerOf(call.slot));
    if (!node) {
      this.slots.scheduleRefresh();
      const { loadError } = this.slots;
      return this.finish(
        call,
        new Error(
          this.slots.known
            ? `no Redis Cluster node serves slot ${call.slot}`
            : `the Redis Cluster slot map is not known yet${loadError ? `: ${loadError}` : ""}`,
        ),
      );
    }
    if (node.opening) {
      // a node first seen in a redirection or a new slot map: nothing has been sent yet
      void node.opening.then(() => this.dispatch(call, node, asking));
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
      (reply) => this.finish(call, undefined, reply),
      (err: Error) => this.onError(call, node, asking, err),
    );
  }

  private onError(call: Call, node: ClusterNode, asking: boolean, err: Error): void {
    if (call.done) return;
    if (!(err instanceof RedisReplyError)) {
      // refused, lost or unanswered: the command may have run, so it is never sent again
      this.slots.scheduleRefresh();
      return this.finish(call, new Error(`Redis Cluster node ${node.id}: ${err.message}`));
    }
    const [code, slotText, address] = err.message.split(" ");
    switch (code) {
      case "MOVED":
      case "ASK": {
        const to = address === undefined ? undefined : redirectTarget(address, node.host);
        if (!to) return this.finish(call, err);
        // an ASK is one step of a migration in progress (ASK, then TRYAGAIN while the slot's keys are
        // split, then ASK again…): bounded by the caller's deadline, like TRYAGAIN; MOVED loops are counted
        if (code === "MOVED" && ++call.redirects > MAX_REDIRECTIONS) {
          return this.finish(call, new RedisReplyError(`too many Redis Cluster redirections; last: ${err.message}`));
        }
        const next = this.slots.nodeAt(to.host, to.port);
        if (code === "ASK") return this.dispatch(call, next, true);
        this.slots.moved(Number(slotText), next);
        this.slots.scheduleRefresh();
        return this.dispatch(call, next);
      }
      case "TRYAGAIN":
        // the slot is being migrated and this call's keys are split between two masters: it ran
        // nowhere, and it will run once the migration moves the rest. Tried again while the caller
        // waits; the last TRYAGAIN is the answer if the deadline comes first.
        call.tryAgain = err;
        if (performance.now() + RETRY_DELAY_MS >= call.deadline) return this.finish(call, err);
        setTimeout(() => this.dispatch(call), RETRY_DELAY_MS).unref();
        return;
      case "CLUSTERDOWN": {
        // the slot has no master (a master lost, or the whole cluster down with
        // cluster-require-full-coverage yes): a few quick tries across a failover, then the error
        if (++call.retries > MAX_RETRIES) return this.finish(call, err);
        this.slots.scheduleRefresh();
        setTimeout(() => this.dispatch(call), RETRY_DELAY_MS).unref();
        return;
      }
      case "NOSCRIPT":
        if (call.fallback) {
          call.args = call.fallback;
          call.fallback = undefined;
          return this.dispatch(call, node, asking);
        }
    }
    this.finish(call, err);
  }

  /** One command on every master; the first master's reply, or the first failure. */
  private everyMaster(args: Arg[]): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const call = this.newCall(args, resolve, reject);
      const run = (): void => {
        if (call.done) return;
        const { masters } = this.slots;
        if (masters.length === 0) return this.finish(call, new Error("the Redis Cluster slot map is not known yet"));
        const replies = masters.map((node) =>
          // a node still connecting gets the command only if the caller is still waiting
          (node.opening ? node.opening.then(() => (call.done ? null : node.req.send(args))) : node.req.send(args)).catch((err: Error) => {
            if (!(err instanceof RedisReplyError)) this.slots.scheduleRefresh();
            throw err instanceof RedisReplyError ? err : new Error(`Redis Cluster node ${node.id}: ${err.message}`);
          }),
        );
        Promise.all(replies).then(
          (all) => this.finish(call, undefined, all[0]),
          (err: Error) => this.finish(call, err),
        );
      };
      if (this.slots.known) run();
      else this.slots.refresh().then(run, (err: Error) => this.finish(call, err));
    });
  }
}
