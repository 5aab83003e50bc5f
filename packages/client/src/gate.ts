// The shared gate every request of one client passes before it is sent. It turns the documented
// client behaviour into one state per client instance, so concurrent calls queue behind the same
// wait instead of each discovering the limit on its own.
//
// Pacing comes from the client's own log of sends. The API's rolling windows are sliding logs: a
// request the server admitted leaves a window of span W at its admission time + W. The server
// admits a request somewhere between its send and its response, so the gate counts each of its own
// requests in every window it applies to from the moment it is sent, and frees that slot only at
// (the moment its response arrived) + W: never too early, whatever the order in which responses
// return. A refused request (429) frees its slot at once (the server records nothing for it); a
// request without an answer (network error, timeout) keeps it for a full span from then.
//
// What the server says can only make the gate MORE careful, never free a slot. From each response's
// IETF `RateLimit` / `RateLimit-Policy` fields (every window's remaining `r`, quota `q`, span `w`)
// the gate learns the windows and how many requests of OTHER clients of the account they hold: the
// server's count minus every request of this client that may have been counted at that moment.
// Those are assumed to stay for a full span after the response. Of several such readings the one
// of the latest-sent request is kept (a late response's count is older than a later request's).
// Windows named `ip:…` are the API's per-address windows for requests without a valid key: they
// are never the account's and are ignored.
//
// Without those fields (a proxy that strips them), the X-RateLimit-* headers name the binding
// window's limit: when the windows are known (from GET /v1/limits, which the gate reads once in
// that case), the reading is applied to the windows of that limit as above. When nothing is known,
// the seed rules apply, counted against the latest-sent reading and every request sent since:
// - when X-RateLimit-Remaining drops below the threshold (5), nobody sends until X-RateLimit-Reset,
//   and then one request probes alone;
// - otherwise at most `remaining - threshold + 1` requests start before fresher headers arrive;
// - a missing X-RateLimit-Remaining counts as 100.
//
// Windows with very large quotas or spans (the day) are tracked by count: the remaining of the
// latest-sent reading minus every request sent since. A day window known to be exhausted until
// further than the longest wait makes the call fail at once, without sending.
//
// After a 429 nobody sends until the server's Retry-After is over. The call that was refused waits
// its own, possibly doubled, delay; the doubling is that call's and never holds others.
//
// An optional shared pacing store (Redis) holds the same log for every process using the key, so
// processes on one account pace together; without it, once other clients show up in the server's
// counts, every wait gets a random extra (full jitter) so that processes spread out.
import type { Clock } from "./clock.js";
import type { PacingStore, PacingWindow } from "./pacing-store.js";

/** One window of the IETF fields: `"minute";r=59;t=60` with its policy `"minute";q=60;w=60`. */
export interface RateLimitWindow {
  /** e.g. "burst", "minute", "endpoint:oib", "day". */
  name: string;
  /** Quota `q`. */
  limit: number;
  /** Span `w` in seconds. */
  windowSeconds: number;
  /** Remaining `r`. */
  remaining: number;
  /** `t`: seconds until the window's quota next increases (0 when it counts nothing). */
  resetSeconds: number;
}

export interface RateLimitStanding {
  /** X-RateLimit-Limit of the binding window; null when the header was absent. */
  limit: number | null;
  /** X-RateLimit-Remaining, or the default (100) when the header was absent. */
  remaining: number;
  /** X-RateLimit-Reset in Unix seconds: when the binding window's quota next increases; null when absent. */
  reset: number | null;
  /** Every window of the IETF `RateLimit` field; null when the response carried none. */
  windows?: RateLimitWindow[] | null;
}

/** Which windows a request counts in: `counted` false for free calls (GET /v1/limits). */
export interface GateScope {
  counted: boolean;
  /** The endpoint group whose dedicated window applies ("oib", "kpd", "fiscalize", "einvoice"), if any. */
  group: string | null;
}

export type GateOutcome =
  /** Any response other than a 429 (including 304 and errors), with its rate-limit headers. */
  | { kind: "response"; standing: RateLimitStanding }
  /**
   * A 429. `retryAfterMs`: the server's Retry-After (or the default when absent), which holds every
   * call; null when it is longer than the cap (nothing within the cap can succeed).
   */
  | { kind: "refused"; standing: RateLimitStanding; retryAfterMs: number | null }
  /** No response: network error, timeout or abort. */
  | { kind: "lost" };

export interface GatePause {
  reason: "rate_limited" | "low_remaining" | "window_full";
  /** Epoch ms until which no request is sent. */
  until: number;
}

/** A turn to send one request; hand it back to `release` exactly once. */
export interface GateTicket {
  readonly scope: GateScope;
  /** Epoch ms when the turn was given (the request is sent right after). */
  readonly sentAt: number;
}

/** A window known to be exhausted for longer than the longest wait (e.g. the day). */
export class WindowExhaustedError extends Error {
  override readonly name = "WindowExhaustedError";
  constructor(
    readonly window: string,
    /** Epoch ms when its quota next increases. */
    readonly until: number,
  ) {
    super(`The "${window}" window is exhausted until ${new Date(until).toISOString()}.`);
  }
}

export interface GateOptions {
  clock: Clock;
  /** Pause when X-RateLimit-Remaining is below this (5); applies when no window is known. */
  lowRemaining: number;
  /** Assumed X-RateLimit-Remaining when the header is absent (100). */
  defaultRemaining: number;
  /** A pause longer than this is not taken (a daily quota would block for hours). */
  maxDelayMs: number;
  /**
   * Asks the API for the account's standing (GET /v1/limits) and reports it with `observeLimits`.
   * Called before the first burst, when the record is stale and several calls are queued, and once
   * when responses come without the IETF fields and no window is known.
   */
  learn?: () => Promise<void>;
  onPause?: (pause: GatePause) => void;
  /** Randomize waits once other clients of the account are seen (default true). */
  jitter?: boolean;
  /** [0, 1); Math.random by default. */
  random?: () => number;
  /** Shared with other processes using the same key. */
  store?: PacingStore | null;
  /** Reports a failure of the shared store (the gate then paces on its own log). */
  onStoreError?: (err: unknown) => void;
}

/** Windows above this quota are tracked by count, not by the log. */
const MAX_LOGGED = 10_000;
/** A record older than this (the minute window) is refreshed before a burst. */
const STALE_MS = 60_000;
/** How long after seeing another client's requests the waits stay jittered. */
const OTHERS_SEEN_MS = 60_000;
/** After the shared store failed, how long the gate paces on its own log before asking it again. */
const STORE_RETRY_MS = 5_000;
/** How soon to ask the shared store again when the slot needed is held by a request in flight. */
const STORE_POLL_MS = 25;
/** Added to every leave time: the server's and the client's millisecond clocks round differently. */
const SAFETY_MS = 2;
/** Upper bound of the random extra added to a window wait (and a quarter of the window's span). */
const MAX_WAIT_JITTER_MS = 500;

interface Ticket extends GateTicket {
  /** Epoch ms when its answer arrived; null while in flight. */
  recvAt: number | null;
  /** Still counted by the server as far as the gate knows (false once refused). */
  counted: boolean;
  /** The shared store's member id, when the store took it. */
  storeId: string | null;
  storeWindows: PacingWindow[] | null;
}

interface Reading {
  /** sentAt of the request whose response carried it (the free GET /v1/limits: its own send). */
  sentAt: number;
  /** That request, when it was a counted one (the server counted it in `remaining`). */
  self: Ticket | null;
  recvAt: number;
  remaining: number;
  /** Epoch ms when the window's quota next increases, as the server said. */
  increaseAt: number;
}

interface Window {
  name: string;
  limit: number;
  spanMs: number;
  /** Tracked by count (large quota or span): see `coarseFree`. */
  coarse: boolean;
  /**
   * Log mode: requests of other clients, as each reading showed them (a lower bound at that moment),
   * each assumed until a full span after its reading. Only the largest still valid counts: a deque
   * of readings with decreasing counts and increasing ends.
   */
  others: Array<{ count: number; until: number; sentAt: number }>;
  /**
   * Other clients' requests at the latest-sent reading. Once every reading has expired, they are
   * assumed to keep sending at that level until a new reading says otherwise (a client that waits
   * gets no readings, and they did not stop because it stopped looking); one request probes.
   */
  lastOthers: { count: number; sentAt: number } | null;
  /** When the latest reading arrived (whatever its request's send time). */
  readAt: number;
  /** The reading of the latest-sent request. */
  latest: Reading | null;
}

export class RateGate {
  private pauseUntil = 0;
  /** After a pause (429 or low remaining, no windows known): probe with one request. */
  private probeAfterPause = false;
  private tickets: Ticket[] = [];
  private waiting = new Set<() => void>();
  private last: RateLimitStanding | null = null;
  private windows = new Map<string, Window>();
  private lastObservedAt: number | null = null;
  private learning: Promise<void> | null = null;
  private lastLearnedAt: number | null = null;
  /** Seed rules: the X-RateLimit-* reading of the latest-sent request. */
  private seed: (Reading & { limit: number | null }) | null = null;
  private outstanding = 0;
  private lastWindowPause = 0;
  private othersSeenAt = -Infinity;
  /** An answer to a counted request has shown the windows with this client's own requests in them. */
  private confirmed = false;
  private learnForLegacy = false;
  private storeSeq = 0;
  private storeDownUntil = 0;
  private readonly random: () => number;

  constructor(private readonly opts: GateOptions) {
    this.random = opts.random ?? Math.random;
  }

  /** The most recent rate-limit headers seen by this client, or null before the first response. */
  get standing(): RateLimitStanding | null {
    return this.last;
  }

  /** Epoch ms until which requests are held after a 429 or a low-remaining pause (0 when none is). */
  get pausedUntil(): number {
    return this.pauseUntil;
  }

  /** Whether waits are being jittered (another client of the account was seen recently). */
  jittering(now = this.opts.clock.now()): boolean {
    return this.opts.jitter !== false && now - this.othersSeenAt < OTHERS_SEEN_MS;
  }

  /** A call begins (before any await), so the gate knows how many are queued. */
  enter(): void {
    this.outstanding++;
  }

  /** A call ends, whatever its outcome. */
  leave(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
  }

  /**
   * Waits for a turn to send one request. Rejects with the signal's reason when it aborts, and with
   * WindowExhaustedError when a window is full for longer than the longest wait.
   */
  async acquire(scope: GateScope, signal?: AbortSignal): Promise<GateTicket> {
    const { clock } = this.opts;
    if (!scope.counted) {
      signal?.throwIfAborted();
      return { scope, sentAt: clock.now() };
    }
    // Before the first response, let the calls started in the same tick line up, so a burst is seen as one.
    if (this.lastObservedAt === null && this.opts.learn) await Promise.resolve();
    for (;;) {
      signal?.throwIfAborted();
      const now = clock.now();
      if (now < this.pauseUntil) {
        await this.waitUntil(this.pauseUntil, signal);
        continue;
      }
      if (this.shouldLearn(now)) {
        await this.learnNow();
        continue;
      }
      const applicable = this.applicable(scope);
      let wakeAt: number;
      if (applicable.length > 0) wakeAt = this.windowsWait(applicable, now);
      else wakeAt = this.seedWait();
      if (wakeAt === 0) {
        const ticket: Ticket = { scope, sentAt: now, recvAt: null, counted: true, storeId: null, storeWindows: null };
        this.tickets.push(ticket);
        this.probeAfterPause = false;
        const storeWait = await this.reserveShared(ticket, applicable);
        if (storeWait === 0) return ticket;
        this.drop(ticket);
        this.notify();
        // A slot held by a request in flight (of any process) comes back at its answer: look again soon.
        const longest = Math.max(...applicable.map((w) => w.spanMs));
        await this.waitUntil(clock.now() + (storeWait > longest ? STORE_POLL_MS : storeWait), signal);
        continue;
      }
      if (wakeAt !== Infinity) wakeAt += this.waitJitter(wakeAt - now, Math.min(...applicable.map((w) => w.spanMs), 1_000));
      await this.waitUntil(wakeAt, signal);
    }
  }

  release(ticket: GateTicket, outcome: GateOutcome): void {
    const { clock } = this.opts;
    const scope = ticket.scope;
    const now = clock.now();
    const t = ticket as Ticket;
    const self = scope.counted && outcome.kind === "response" && this.tickets.includes(t) ? t : null;
    if (scope.counted && this.tickets.includes(t)) {
      t.recvAt = now;
      if (outcome.kind === "refused") {
        t.counted = false;
        this.drop(t);
      }
      this.settleShared(t, outcome.kind !== "refused");
    }
    if (outcome.kind !== "lost") {
      this.last = outcome.standing;
      this.lastObservedAt = now;
      // A free call's 429 describes its own allowance, not the account's windows.
      const describesAccount = scope.counted || outcome.kind === "response";
      const windows = outcome.standing.windows?.filter((w) => !w.name.startsWith("ip:")) ?? [];
      if (describesAccount && windows.length > 0) {
        this.observeWindows(windows, scope, self, ticket.sentAt, now);
      } else if (describesAccount && scope.counted && !outcome.standing.windows?.length) {
        this.observeLegacy(outcome.standing, scope, self, ticket.sentAt, now);
      }
    }
    if (outcome.kind === "refused" && scope.counted) {
      // Refused although the log had room: another client sends on this account.
      this.othersSeenAt = now;
      if (outcome.retryAfterMs !== null) {
        // Every client refused at this moment is told the same Retry-After: a random extra keeps
        // them from all coming back in the same millisecond.
        const extra = this.opts.jitter === false || this.opts.store ? 0 : Math.floor(this.random() * Math.min(outcome.retryAfterMs, 1_000));
        this.pause({ reason: "rate_limited", until: now + outcome.retryAfterMs + extra });
      }
    }
    this.notify();
  }

  /** The body of GET /v1/limits: every window of the account and of every endpoint group. */
  observeLimits(windows: readonly RateLimitWindow[], sentAt: number): void {
    const now = this.opts.clock.now();
    this.lastObservedAt = now;
    this.observeWindows(
      windows.filter((w) => !w.name.startsWith("ip:")),
      { counted: false, group: null },
      null,
      sentAt,
      now,
    );
    this.notify();
  }

  // --- cold start ------------------------------------------------------------------------------

  private shouldLearn(now: number): boolean {
    if (!this.opts.learn) return false;
    if (this.learning) return true;
    if (this.learnForLegacy) return true;
    if (this.outstanding < 2) return false;
    if (this.lastLearnedAt !== null && now - this.lastLearnedAt < STALE_MS) return false;
    // Nothing known, or the record is old while several calls are queued.
    return this.lastObservedAt === null || now - this.lastObservedAt > STALE_MS;
  }

  private async learnNow(): Promise<void> {
    if (!this.learning) {
      this.learnForLegacy = false;
      this.learning = this.opts.learn!()
        .catch(() => undefined)
        .finally(() => {
          this.lastLearnedAt = this.opts.clock.now();
          this.learning = null;
        });
    }
    await this.learning;
  }

  // --- the windows -------------------------------------------------------------------------------

  private applicable(scope: GateScope): Window[] {
    const out: Window[] = [];
    for (const w of this.windows.values()) if (applies(w.name, scope)) out.push(w);
    return out;
  }

  /** 0 when every window has a free slot now; otherwise when to look again (Infinity: at the next response). */
  private windowsWait(applicable: Window[], now: number): number {
    this.prune(now);
    let wakeAt = 0;
    for (const w of applicable) {
      const at = w.coarse ? this.coarseWait(w, now) : this.logWait(w, now);
      wakeAt = Math.max(wakeAt, at);
    }
    if (wakeAt > 0 && wakeAt !== Infinity && wakeAt !== this.lastWindowPause) {
      this.lastWindowPause = wakeAt;
      this.opts.onPause?.({ reason: "window_full", until: wakeAt });
    }
    return wakeAt;
  }

  /** Log mode: own requests occupy until their answer + span; other clients' as last read. */
  private logWait(w: Window, now: number): number {
    const leaves: number[] = [];
    let occupied = 0;
    for (const t of this.tickets) {
      if (!t.counted || !applies(w.name, t.scope)) continue;
      const leaveAt = t.recvAt === null ? Infinity : t.recvAt + w.spanMs + SAFETY_MS;
      if (leaveAt <= now) continue;
      occupied++;
      leaves.push(leaveAt);
    }
    // With a shared store, other processes' requests are in the store's log, not guessed here.
    while (w.others.length > 0 && w.others[0]!.until <= now) w.others.shift();
    const others = w.others[0];
    let persisted = 0;
    if (!this.opts.store && !others && w.lastOthers && w.lastOthers.count > 0) {
      persisted = w.lastOthers.count;
      occupied += persisted;
    }
    if (!this.opts.store && others) {
      // They have kept sending since that reading: as many again as their rate over the time since.
      const since = Math.min(others.count, Math.ceil((others.count * Math.max(0, now - others.sentAt)) / w.spanMs));
      occupied += others.count + since;
      for (let i = 0; i < since; i++) leaves.push(now + w.spanMs);
      // Each reading's count is assumed until its end; a smaller later one takes over from there.
      let counted = others.count;
      for (let i = 0; i < w.others.length; i++) {
        const next = w.others[i + 1]?.count ?? 0;
        for (let k = next; k < counted; k++) leaves.push(w.others[i]!.until);
        counted = next;
      }
    }
    const rawFree = w.limit - occupied;
    let free = rawFree;
    const idle = !this.tickets.some((t) => t.recvAt === null && applies(w.name, t.scope));
    // Other clients are sending without a shared store: they see the same free slots. Taking only
    // half of them leaves the other half to the others, instead of both taking all and one being refused.
    // Until the first answer shows whether anyone else sends (processes started together all read
    // an empty window), the first burst takes half as well; the answers, a round trip later, free the rest.
    if (!this.opts.store && (others || persisted || !this.confirmed || this.jittering(now)) && free >= 1) {
      // Half of what was free at the last reading, less what this client has sent since; one at a
      // time when nothing is in flight.
      let sentSince = 0;
      for (const t of this.tickets) if (t.sentAt >= w.readAt && applies(w.name, t.scope)) sentSince++;
      free = Math.floor((free + sentSince) / 2) - sentSince;
      if (free < 1 && idle) free = 1;
    }
    if (free >= 1) return 0;
    // Blocked only by the others' level assumed since the last reading: one request finds out.
    if (persisted && idle && rawFree + persisted >= 1) return 0;
    leaves.sort((a, b) => a - b);
    // The slot comes back when enough of the counted requests have left.
    // (The others' level assumed since the last reading has no leave time: wait for room beside it.)
    const at = leaves[Math.max(0, -(rawFree + persisted))] ?? Infinity;
    if (at !== Infinity && at - now > this.opts.maxDelayMs) throw new WindowExhaustedError(w.name, at);
    return at;
  }

  /** Count mode: the latest reading's remaining minus every request sent since (by this client). */
  private coarseWait(w: Window, now: number): number {
    const r = w.latest;
    if (!r) return 0;
    let since = 0;
    let inFlight = 0;
    for (const t of this.tickets) {
      if (!applies(w.name, t.scope)) continue;
      if (t.recvAt === null) inFlight++;
      if (t.sentAt >= r.sentAt && t !== r.self) since++;
    }
    if (r.remaining - since >= 1) return 0;
    // Its quota has increased since: one request finds out by how much.
    if (now >= r.increaseAt && r.increaseAt > r.recvAt) return inFlight === 0 ? 0 : Infinity;
    if (r.increaseAt - now > this.opts.maxDelayMs) throw new WindowExhaustedError(w.name, r.increaseAt);
    return r.increaseAt > now ? r.increaseAt : Infinity;
  }

  private observeWindows(readings: readonly RateLimitWindow[], scope: GateScope, self: Ticket | null, sentAt: number, recvAt: number): void {
    for (const r of readings) {
      const spanMs = r.windowSeconds * 1000;
      const coarse = r.limit > MAX_LOGGED || spanMs > this.opts.maxDelayMs;
      let w = this.windows.get(r.name);
      if (!w) {
        w = { name: r.name, limit: r.limit, spanMs, coarse, others: [], lastOthers: null, readAt: recvAt, latest: null };
        this.windows.set(r.name, w);
      }
      w.limit = r.limit;
      w.spanMs = spanMs;
      w.coarse = coarse;
      this.read(w, { sentAt, self, recvAt, remaining: r.remaining, increaseAt: recvAt + r.resetSeconds * 1000 });
    }
  }

  /** Applies one reading of a window. */
  private read(w: Window, reading: Reading): void {
    // Count mode keeps the reading of the latest-sent request (a late response's count is older).
    if (!w.latest || reading.sentAt >= w.latest.sentAt) w.latest = reading;
    w.readAt = Math.max(w.readAt, reading.recvAt);
    if (w.coarse) return;
    // Every request of this client the server may have counted when it decided: sent before this
    // answer, and not yet out of the window when this request was sent.
    // (A refused request is no longer in the log: the server counted it nowhere.)
    let mine = 0;
    let certain = 0;
    for (const t of this.tickets) {
      if (!applies(w.name, t.scope)) continue;
      if (t.sentAt <= reading.recvAt && (t.recvAt === null || t.recvAt + w.spanMs + SAFETY_MS > reading.sentAt)) mine++;
      if (t === reading.self || (t.recvAt !== null && t.recvAt <= reading.sentAt && t.sentAt + w.spanMs > reading.recvAt)) certain++;
    }
    // Once other clients are about, only half of this client's requests the server may not have
    // decided yet (in flight when this one was) are taken as counted: the others' share is then
    // rather over- than under-estimated. Alone, every one of them is, and the others' share is 0.
    if (this.jittering(reading.recvAt)) mine = certain + Math.floor((mine - certain) / 2);
    const used = Math.max(0, w.limit - reading.remaining);
    const others = Math.max(0, used - mine);
    if (reading.self) this.confirmed = true;
    if (!w.lastOthers || reading.sentAt >= w.lastOthers.sentAt) w.lastOthers = { count: others, sentAt: reading.sentAt };
    if (others === 0) return;
    this.othersSeenAt = reading.recvAt;
    const until = reading.recvAt + w.spanMs + SAFETY_MS;
    while (w.others.length > 0 && w.others.at(-1)!.count <= others) w.others.pop();
    if (w.others.length === 0 || w.others.at(-1)!.until < until) w.others.push({ count: others, until, sentAt: reading.sentAt });
  }

  // --- X-RateLimit-* only -------------------------------------------------------------------------

  private observeLegacy(s: RateLimitStanding, scope: GateScope, self: Ticket | null, sentAt: number, recvAt: number): void {
    const increaseAt = s.reset === null ? recvAt : Math.max(recvAt, s.reset * 1000);
    const reading: Reading = { sentAt, self, recvAt, remaining: s.remaining, increaseAt };
    if (this.windows.size > 0) {
      // The binding window is the one of that limit (all of them when several share it).
      if (s.limit !== null) for (const w of this.applicable(scope)) if (w.limit === s.limit) this.read(w, reading);
      return;
    }
    // Nothing known: read every window once (GET /v1/limits), and meanwhile follow the seed rules.
    if (this.opts.learn && this.lastLearnedAt === null && s.limit !== null) this.learnForLegacy = true;
    if (this.seed && sentAt < this.seed.sentAt) return;
    this.seed = { ...reading, limit: s.limit };
    const { lowRemaining, maxDelayMs } = this.opts;
    if (s.remaining < lowRemaining && increaseAt > recvAt && increaseAt - recvAt <= maxDelayMs) {
      this.pause({ reason: "low_remaining", until: increaseAt });
    }
  }

  /** Seed rules: 0 when a request may start now. */
  private seedWait(): number {
    this.prune(this.opts.clock.now());
    const inFlight = this.tickets.filter((t) => t.recvAt === null).length;
    const s = this.seed;
    if (!s || this.probeAfterPause) return inFlight === 0 ? 0 : Infinity;
    let since = 0;
    for (const t of this.tickets) if (t.sentAt >= s.sentAt && t !== s.self) since++;
    const { lowRemaining } = this.opts;
    if (s.remaining < lowRemaining) {
      // Paused until the reset (see observeLegacy), or the reset is unknown or too far away:
      // one request at a time.
      // With nothing in flight to bring fresher headers, one request finds out.
      return inFlight === 0 ? 0 : Infinity;
    }
    const budget = s.remaining - lowRemaining + 1 - since;
    if (budget >= 1) return 0;
    return inFlight === 0 ? 0 : Infinity;
  }

  // --- the shared store ----------------------------------------------------------------------------

  private storeWindows(applicable: Window[]): PacingWindow[] {
    return applicable.filter((w) => !w.coarse).map((w) => ({ name: w.name, limit: w.limit, spanMs: w.spanMs }));
  }

  /** 0 when the shared store admitted the ticket (or there is none, or it failed); else ms to wait. */
  private async reserveShared(ticket: Ticket, applicable: Window[]): Promise<number> {
    const store = this.opts.store;
    if (!store || this.opts.clock.now() < this.storeDownUntil) return 0;
    const windows = this.storeWindows(applicable);
    if (windows.length === 0) return 0;
    const id = `${this.opts.clock.now().toString(36)}-${(this.storeSeq++).toString(36)}-${Math.floor(this.random() * 2 ** 32).toString(36)}`;
    try {
      const wait = await store.reserve(id, windows);
      if (wait > 0) return wait;
      ticket.storeId = id;
      ticket.storeWindows = windows;
      return 0;
    } catch (err) {
      // Paced on the own log for a while, instead of every call waiting for a store that is down.
      this.storeDownUntil = this.opts.clock.now() + STORE_RETRY_MS;
      this.opts.onStoreError?.(err);
      return 0;
    }
  }

  private settleShared(ticket: Ticket, counted: boolean): void {
    const store = this.opts.store;
    if (!store || !ticket.storeId || !ticket.storeWindows) return;
    store.settle(ticket.storeId, ticket.storeWindows, counted).catch((err: unknown) => this.opts.onStoreError?.(err));
  }

  // --- shared machinery --------------------------------------------------------------------------

  /** A random extra for a wait of `waitMs` in a window of `spanMs`, once other clients are seen. */
  private waitJitter(waitMs: number, spanMs: number): number {
    // With a shared store every slot is given out once: nothing to spread.
    if (this.opts.store || !this.jittering()) return 0;
    return Math.floor(this.random() * Math.min(MAX_WAIT_JITTER_MS, spanMs / 4, Math.max(waitMs, 50)));
  }

  private drop(ticket: Ticket): void {
    const i = this.tickets.indexOf(ticket);
    if (i >= 0) this.tickets.splice(i, 1);
  }

  /** Forgets answered requests that have left every window. */
  private prune(now: number): void {
    let longest = 0;
    for (const w of this.windows.values()) if (!w.coarse) longest = Math.max(longest, w.spanMs);
    const seedSentAt = this.seed?.sentAt ?? Infinity;
    let coarseSince = Infinity;
    for (const w of this.windows.values()) if (w.coarse && w.latest) coarseSince = Math.min(coarseSince, w.latest.sentAt);
    if (this.tickets.length < 64) return;
    // Kept a while longer, so that a late response's reading still finds the requests it may have counted.
    const keep = now - longest - STALE_MS;
    this.tickets = this.tickets.filter((t) => t.recvAt === null || t.recvAt > keep || t.sentAt >= seedSentAt || t.sentAt >= coarseSince);
  }

  private pause(p: GatePause): void {
    const now = this.opts.clock.now();
    this.pauseUntil = now < this.pauseUntil ? Math.max(this.pauseUntil, p.until) : p.until;
    if (this.windows.size === 0) this.probeAfterPause = true;
    this.opts.onPause?.({ reason: p.reason, until: this.pauseUntil });
  }

  private notify(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const wake of waiting) wake();
  }

  /**
   * Resolves at `until` (epoch ms; null or Infinity: never) or at the next release, whichever is
   * first; with `timerOnly`, only at `until`.
   */
  private waitUntil(until: number | null, signal?: AbortSignal, timerOnly = false): Promise<void> {
    const { clock } = this.opts;
    return new Promise<void>((resolve, reject) => {
      const timer = new AbortController();
      const done = () => {
        this.waiting.delete(wake);
        signal?.removeEventListener("abort", onAbort);
        timer.abort();
      };
      const wake = () => {
        done();
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      if (!timerOnly) this.waiting.add(wake);
      signal?.addEventListener("abort", onAbort, { once: true });
      if (until !== null && until !== Infinity) {
        clock.sleep(Math.max(0, until - clock.now()), timer.signal).then(wake, () => undefined);
      }
    });
  }
}

/** Whether a window applies to a request: the account's windows always, an endpoint's to its group. */
function applies(name: string, scope: GateScope): boolean {
  return !name.startsWith("endpoint:") || name === `endpoint:${scope.group}`;
}

/** Parses the IETF `RateLimit` and `RateLimit-Policy` fields into windows; null when either is absent. */
export function parseRateLimitFields(rateLimit: string | null, policy: string | null): RateLimitWindow[] | null {
  if (!rateLimit || !policy) return null;
  const pol = new Map<string, { q?: number; w?: number }>();
  for (const [name, params] of items(policy)) pol.set(name, { q: params.get("q"), w: params.get("w") });
  const out: RateLimitWindow[] = [];
  for (const [name, params] of items(rateLimit)) {
    const p = pol.get(name);
    const r = params.get("r");
    if (!p || p.q === undefined || p.w === undefined || r === undefined) continue;
    out.push({ name, limit: p.q, windowSeconds: p.w, remaining: r, resetSeconds: params.get("t") ?? 0 });
  }
  return out.length > 0 ? out : null;
}

function items(field: string): Array<[string, Map<string, number>]> {
  const out: Array<[string, Map<string, number>]> = [];
  for (const m of field.matchAll(/"([^"]*)"((?:\s*;\s*[a-z][a-z0-9_-]*=[^,;]*)*)/gi)) {
    const params = new Map<string, number>();
    for (const pm of m[2]!.matchAll(/;\s*([a-z][a-z0-9_-]*)=\s*(\d+)/gi)) params.set(pm[1]!.toLowerCase(), Number(pm[2]));
    out.push([m[1]!, params]);
  }
  return out;
}
