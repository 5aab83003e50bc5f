// A background pass run every interval in each API process: one pass at a time (a call while one
// runs joins it), and `stop()` waits for the pass under way. The late-delivery and e-invoice
// fiscalization jobs are built on it.
export type PassScope = { accountId?: string };

export interface PeriodicJob {
  /** Runs a pass now, or joins the one under way; resolves with what it completed. */
  runOnce(scope?: PassScope): Promise<number>;
  start(): void;
  stop(): Promise<void>;
  /** True once stop() was called: a pass ends early between items. */
  readonly stopped: boolean;
}

export function periodicJob(pass: (scope: PassScope) => Promise<number>, intervalMs: number): PeriodicJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;
  function runOnce(scope: PassScope = {}): Promise<number> {
    running ??= pass(scope).finally(() => (running = null));
    return running;
  }
  return {
    runOnce,
    get stopped() {
      return stopped;
    },
    start() {
      if (timer) return;
      void runOnce();
      timer = setInterval(() => void runOnce(), intervalMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
