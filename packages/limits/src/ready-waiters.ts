/**
 * The callers of a single-Redis requester's `ready(ms)` (redis-requester.ts) waiting for the
 * connection, on their own: each is answered once, when the connection is set up, when it is lost,
 * or after its own `ms`, whichever comes first.
 */
interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export class ReadyWaiters {
  private readonly waiters = new Set<Waiter>();

  /** Resolves on `resolveAll`, rejects on `rejectAll` or after `ms` (the message ending in `lastError()` then, if any). */
  wait(ms: number, lastError: () => string | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (err: Error) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const last = lastError();
        reject(new Error(`Redis not ready within ${ms} ms${last ? `: ${last}` : ""}`));
      }, ms);
      this.waiters.add(waiter);
    });
  }

  resolveAll(): void {
    for (const w of this.waiters) w.resolve();
    this.waiters.clear();
  }

  rejectAll(err: Error): void {
    for (const w of this.waiters) w.reject(err);
    this.waiters.clear();
  }
}
