// A background pass run every interval in each API process: one pass at a time (a call while one
// runs joins it), and `stop()` waits for the pass under way. The late-delivery and e-invoice
// fiscalization jobs, the journal's reconciler, reporting.due and the hourly maintenance (app.ts) are
// built on it.
export type PassScope = { accountId?: string };

export interface PeriodicJob<T = number> {
  /** Runs a pass now, or joins the one under way; resolves with what it completed. */
  runOnce(scope?: PassScope): Promise<T>;
  /** Runs a pass now (join it with `runOnce()`), then every interval. */
  start(): void;
  stop(): Promise<void>;
  /** True once stop() was called: a pass ends early between items. */
  readonly stopped: boolean;
}

/** `onError`: what a failed pass started by the interval does (default: rejects unhandled, as any failure). */
export function periodicJob<T = number>(pass: (scope: PassScope) => Promise<T>, intervalMs: number, onError?: (err: unknown) => void): PeriodicJob<T> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<T> | null = null;
  let stopped = false;
  function runOnce(scope: PassScope = {}): Promise<T> {
    running ??= pass(scope).finally(() => (running = null));
    return running;
  }
  const tick = () => void (onError ? runOnce().catch(onError) : runOnce());
  return {
    runOnce,
    get stopped() {
      return stopped;
    },
    start() {
      if (timer) return;
      tick();
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}
