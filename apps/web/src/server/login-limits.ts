// Limits on sign-in and sign-up attempts, enforced with the same limiter as the API.
//   per IP:            10/s, 20/min, 1,000/day — slows guessing across many accounts from one address;
//   per (e-mail, IP):  3/s, 10/min, 100/day — slows guessing against one account from one address
//                      (a sign-in with two-factor takes two attempts: the password, then the code);
//   sign-ups per IP:   2/s, 5/min, 50/day.
// Every attempt counts, successful or not, so a correct password cannot be used to probe the limiter.
// No limit is per e-mail alone: that would let anyone who knows an address lock its owner out.
// Instead, failed sign-ins of an e-mail from all addresses together slow every further attempt on
// it down (signInDelayMs): a wait that grows with the failures of the last minute and of the day,
// never a refusal.
import { createRateLimiter, sekundi, type Limits, type RateLimiter } from "@fiskal/limits";
import { env } from "~/env";

const LOGIN_LIMITS = {
  emailIp: { burst: 3, perMinute: 10, perDay: 100 },
  ip: { burst: 10, perMinute: 20, perDay: 1_000 },
  signUpIp: { burst: 2, perMinute: 5, perDay: 50 },
} as const satisfies Record<string, Limits>;

const holder = globalThis as typeof globalThis & { __fiskalLoginLimiter?: RateLimiter };

/** The portal's limiter (sign-in, sign-up, webhook sends), one per process. */
export function portalLimiter(): RateLimiter {
  holder.__fiskalLoginLimiter ??= createRateLimiter({
    store: env().limiterStore,
    prefix: `${env().rateLimitPrefix}:portal`,
    redisTimeoutMs: env().rateLimitStoreTimeoutMs,
  });
  return holder.__fiskalLoginLimiter;
}

export type AttemptVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

async function decide(identity: string, limits: Limits): Promise<AttemptVerdict> {
  const d = await portalLimiter().decide({ identity, limits });
  return d.allowed ? { allowed: true } : { allowed: false, retryAfterSeconds: d.retryAfterSeconds ?? 60 };
}

/** Checks the per-IP window first, then the e-mail from this address; other addresses are not affected. */
export async function checkLoginAttempt(input: { email: string; ip: string }): Promise<AttemptVerdict> {
  const byIp = await decide(`login:ip:${input.ip}`, LOGIN_LIMITS.ip);
  if (!byIp.allowed) return byIp;
  return decide(`login:email-ip:${input.email}:${input.ip}`, LOGIN_LIMITS.emailIp);
}

/** Counts failed sign-ins per e-mail (from every address); never refuses, only measured. */
const FAILURE_COUNT = { burst: 100, perMinute: 200, perDay: 10_000 } as const satisfies Limits;
/** Failures in the last minute before the wait starts; the wait doubles with each one after. */
const FREE_FAILURES_PER_MINUTE = 3;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
/** More failures than this in a day: at least DAY_FLOOR_MS per attempt for the rest of it. */
const FREE_FAILURES_PER_DAY = 20;
const DAY_FLOOR_MS = 1_000;

/** The wait before the e-mail's next password check: 0 until failures pile up, at most 8 s. */
export function delayForFailures(lastMinute: number, today: number): number {
  const extra = lastMinute - FREE_FAILURES_PER_MINUTE;
  const byMinute = extra < 0 ? 0 : Math.min(FIRST_DELAY_MS * 2 ** extra, MAX_DELAY_MS);
  return today > FREE_FAILURES_PER_DAY ? Math.max(byMinute, DAY_FLOOR_MS) : byMinute;
}

export async function signInDelayMs(email: string): Promise<number> {
  const windows = await portalLimiter().peek({ identity: `login:fail:${email}`, limits: FAILURE_COUNT });
  const used = (name: string) => {
    const w = windows.find((x) => x.name === name);
    return w ? w.limit - w.remaining : 0;
  };
  return delayForFailures(used("minute"), used("day"));
}

export async function recordSignInFailure(email: string): Promise<void> {
  await portalLimiter().decide({ identity: `login:fail:${email}`, limits: FAILURE_COUNT });
}

export function checkSignUpAttempt(ip: string): Promise<AttemptVerdict> {
  return decide(`signup:ip:${ip}`, LOGIN_LIMITS.signUpIp);
}

export function loginRefusedMessage(retryAfterSeconds: number): string {
  return `Previše pokušaja. Pokušajte ponovno za ${sekundi(retryAfterSeconds)}.`;
}
