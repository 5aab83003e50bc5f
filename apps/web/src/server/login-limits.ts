// Limits on sign-in and sign-up attempts, enforced with the same limiter as the API.
//   per e-mail: 3/s, 5/min, 100/day — slows password guessing against one account;
//   per IP:     10/s, 20/min, 1,000/day — slows guessing across many accounts from one address;
//   sign-ups per IP: 2/s, 5/min, 50/day.
// Every attempt counts, successful or not, so a correct password cannot be used to probe the limiter.
import { createRateLimiter, sekundi, type Limits, type RateLimiter } from "@fiskal/limits";
import { env } from "~/env";

const LOGIN_LIMITS = {
  email: { burst: 3, perMinute: 5, perDay: 100 },
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

/** Checks the per-IP window first so that a flood from one address does not lock out the e-mail. */
export async function checkLoginAttempt(input: { email: string; ip: string }): Promise<AttemptVerdict> {
  const byIp = await decide(`login:ip:${input.ip}`, LOGIN_LIMITS.ip);
  if (!byIp.allowed) return byIp;
  return decide(`login:email:${input.email}`, LOGIN_LIMITS.email);
}

export function checkSignUpAttempt(ip: string): Promise<AttemptVerdict> {
  return decide(`signup:ip:${ip}`, LOGIN_LIMITS.signUpIp);
}

export function loginRefusedMessage(retryAfterSeconds: number): string {
  return `Previše pokušaja. Pokušajte ponovno za ${sekundi(retryAfterSeconds)}.`;
}
