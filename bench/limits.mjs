// The limits of every bench account, on every row that limits: the largest the limiter keeps as
// exact logs for its rolling windows (burst, minute, endpoint: it keeps the time of each request it
// counts, up to 100,000 per account and window) and a day limit far above a run. The load spreads its requests
// over BENCH_ACCOUNTS accounts (default 100), so that no account comes near them: at 100 accounts a
// server would need more than 160,000 requests/s to fill one account's minute.
export const LIMITS = { burst: 100_000, perMinute: 100_000, endpoint: 100_000, perDay: 1_000_000_000 };

/** How many accounts (API keys, identities) the load cycles through. */
export const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100);
