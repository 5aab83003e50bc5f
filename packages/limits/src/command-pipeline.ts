/**
 * The commands in flight on one RESP connection (redis-requester.ts), on their own: replies arrive
 * in send order, so the oldest command waiting takes the next reply; the commands queued in one
 * turn of the event loop are written together, in one write (auto-pipelining: a tick's decisions
 * reach Redis in one read).
 */
import { encodeCommand, RedisReplyError, type Arg, type Reply } from "./resp.ts";

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (err: Error) => void;
  /** performance.now() when the command was queued */
  at: number;
}

/** Above this many answered entries (and half the array), the array is compacted. */
const COMPACT_AFTER = 1024;

export class CommandPipeline {
  // in flight, in send order; `head` avoids shifting the array on every reply
  // answered slots before `head` are cleared (undefined) until the array is compacted
  private pending: (Pending | undefined)[] = [];
  private head = 0;
  private outbox = "";
  private flushScheduled = false;

  /** `write` sends bytes on the current connection; false when there is none (the bytes are dropped). */
  constructor(private readonly write: (data: string) => boolean) {}

  /** Queues a command; it is written with the others of this turn (setImmediate), answered by `answer`. */
  enqueue(args: readonly Arg[]): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      this.pending.push({ resolve, reject, at: performance.now() });
      this.outbox += encodeCommand(args);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  /** Writes what this turn queued (also before closing, so that nothing queued is lost unsaid). */
  readonly flush = (): void => {
    this.flushScheduled = false;
    if (this.outbox.length === 0) return;
    if (this.write(this.outbox)) this.outbox = "";
  };

  /** Hands a reply to the oldest command waiting; false when none was (a reply nobody asked for). */
  answer(reply: Reply): boolean {
    const p = this.pending[this.head];
    if (!p) return false;
    this.pending[this.head++] = undefined;
    if (this.head > COMPACT_AFTER && this.head * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.head);
      this.head = 0;
    }
    if (reply instanceof RedisReplyError) p.reject(reply);
    else p.resolve(reply);
    return true;
  }

  /** When the oldest command still waiting was queued (performance.now()), if one is. */
  oldestAt(): number | undefined {
    return this.pending[this.head]?.at;
  }

  /** Commands waiting for a reply. */
  get size(): number {
    return this.pending.length - this.head;
  }

  /** Fails every command in flight with `err` and drops what was not written yet. */
  failAll(err: Error): void {
    const inFlight = this.pending.slice(this.head);
    this.pending = [];
    this.head = 0;
    this.outbox = "";
    for (const p of inFlight) p?.reject(err);
  }
}
