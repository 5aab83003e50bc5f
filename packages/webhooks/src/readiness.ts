// The queue is prepared once, on first use, by whichever call comes first; a failed preparation is
// tried again by the next call, and nothing is prepared once the instance is closed.

export type Readiness = {
  /** Resolves once the queue is prepared; rejects after `close()`. */
  prepared: () => Promise<void>;
  /** The preparation started and not failed (it may still be running), or undefined. */
  current: () => Promise<void> | undefined;
  /** No preparation starts after this. */
  close: () => void;
  readonly closed: boolean;
};

export function createReadiness(prepare: () => Promise<void>): Readiness {
  let ready: Promise<void> | undefined;
  let closed = false;
  return {
    prepared: () => {
      if (closed) return Promise.reject(new Error("webhooks were closed"));
      ready ??= prepare().catch((err: unknown) => {
        ready = undefined;
        throw err;
      });
      return ready;
    },
    current: () => ready,
    close: () => {
      closed = true;
    },
    get closed() {
      return closed;
    },
  };
}
