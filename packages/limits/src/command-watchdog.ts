/**
 * The command deadline of a single-Redis requester (redis-requester.ts), on its own: a command
 * unanswered after `timeoutMs` closes the connection and fails everything in flight (the caller
 * falls back); the connection is re-established in the background.
 *
 * One timer for all commands: replies arrive in send order, so the oldest command in flight decides.
 */
export class CommandWatchdog {
  private readonly timer: NodeJS.Timeout;

  /**
   * `oldestAt`: when the oldest command still waiting was queued (performance.now()), if one is;
   * `onLate`: called with the timeout error, every check, for as long as that command is late.
   */
  constructor(
    private readonly timeoutMs: number,
    private readonly oldestAt: () => number | undefined,
    private readonly onLate: (err: Error) => void,
  ) {
    this.timer = setInterval(this.check, Math.max(5, Math.floor(timeoutMs / 4)));
    this.timer.unref();
  }

  /** Fails the connection when the oldest command in flight has waited longer than `timeoutMs`. */
  readonly check = (): void => {
    const oldest = this.oldestAt();
    if (oldest !== undefined && performance.now() - oldest > this.timeoutMs) {
      this.onLate(new Error(`Redis did not answer within ${this.timeoutMs} ms`));
    }
  };

  stop(): void {
    clearInterval(this.timer);
  }
}
