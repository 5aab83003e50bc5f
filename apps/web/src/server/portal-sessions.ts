// Server-side portal sessions. The session token (a JWT in the cookie) carries the id of a
// PortalSession row; a token is accepted only while its row exists and has not expired, so signing
// out, ending a session from the "Sesije" page and a password change take effect at once, and an
// old cookie put back opens nothing.
//
// Every page and portal call checks the row. The answer is cached in this process for a few seconds
// (SESSION_CHECK_CACHE_MS); ending a session here drops it from the cache at once, another portal
// process sees the end within that time.
import { db } from "~/server/db";

/** Lifetime of a session and of its token: 7 days from sign-in, not extended by use. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
const SESSION_CHECK_CACHE_MS = 5_000;
/** lastSeenAt is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;
const USER_AGENT_MAX = 400;

type Cached = { userId: string | null; expiresAt: number; checkedAt: number; touchedAt: number };
const holder = globalThis as typeof globalThis & { __fiskalSessionCache?: Map<string, Cached> };
function cache(): Map<string, Cached> {
  return (holder.__fiskalSessionCache ??= new Map());
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createPortalSession(input: { userId: string; userAgent: string | null; ip: string | null }): Promise<string> {
  const row = await db().portalSession.create({
    data: {
      userId: input.userId,
      userAgent: input.userAgent ? input.userAgent.slice(0, USER_AGENT_MAX) : null,
      ip: input.ip,
      expiresAt: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
    },
    select: { id: true },
  });
  // Expired rows of anyone are cleared now and then; they are refused anyway.
  if (Math.random() < 0.05) void db().portalSession.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch(() => undefined);
  return row.id;
}

/** Whether the session `sid` is live and belongs to `userId`; refreshes lastSeenAt now and then. */
export async function isSessionLive(sid: string | undefined, userId: string): Promise<boolean> {
  if (!sid || !UUID.test(sid)) return false;
  const now = Date.now();
  const map = cache();
  let entry = map.get(sid);
  if (!entry || now - entry.checkedAt > SESSION_CHECK_CACHE_MS) {
    const row = await db().portalSession.findUnique({ where: { id: sid }, select: { userId: true, expiresAt: true, lastSeenAt: true } });
    entry = {
      userId: row?.userId ?? null,
      expiresAt: row?.expiresAt.getTime() ?? 0,
      checkedAt: now,
      touchedAt: Math.max(entry?.touchedAt ?? 0, row?.lastSeenAt.getTime() ?? 0),
    };
    if (map.size > 10_000) map.clear();
    map.set(sid, entry);
  }
  const live = entry.userId === userId && entry.expiresAt > now;
  if (live && now - entry.touchedAt > TOUCH_EVERY_MS) {
    entry.touchedAt = now;
    await db()
      .portalSession.updateMany({ where: { id: sid }, data: { lastSeenAt: new Date(now) } })
      .catch(() => undefined);
  }
  return live;
}

function forget(ids: Iterable<string>): void {
  const map = cache();
  for (const id of ids) map.delete(id);
}

/** Ends one session of `userId` (only theirs); false when there was none. */
export async function endPortalSession(userId: string, sid: string): Promise<boolean> {
  if (!UUID.test(sid)) return false;
  const { count } = await db().portalSession.deleteMany({ where: { id: sid, userId } });
  forget([sid]);
  return count > 0;
}

/** Ends every session of `userId` except `keep`; returns how many ended. */
export async function endOtherPortalSessions(userId: string, keep: string | undefined): Promise<number> {
  const others = await db().portalSession.findMany({ where: { userId, ...(keep ? { id: { not: keep } } : {}) }, select: { id: true } });
  if (others.length === 0) return 0;
  const ids = others.map((o) => o.id);
  const { count } = await db().portalSession.deleteMany({ where: { userId, id: { in: ids } } });
  forget(ids);
  return count;
}

/**
 * Records the kind of device of a sign-in; true when the user had signed in before, but never with
 * this kind (the first sign-in of a new user is not "a new device").
 */
export async function isNewDevice(userId: string, device: string): Promise<boolean> {
  const before = await db().knownDevice.count({ where: { userId } });
  const { count } = await db().knownDevice.createMany({ data: [{ userId, device }], skipDuplicates: true });
  if (count === 0) await db().knownDevice.updateMany({ where: { userId, device }, data: { lastSeenAt: new Date() } });
  return count > 0 && before > 0;
}

const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/[\d.]+/, "Edge"],
  [/OPR\/[\d.]+|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
  [/curl\//, "curl"],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/CrOS/, "ChromeOS"],
  [/Linux|X11/, "Linux"],
];

/** "Chrome, Linux" from a User-Agent; "Nepoznat uređaj" when it says nothing recognisable. */
export function describeDevice(userAgent: string | null | undefined): string {
  if (!userAgent) return "Nepoznat uređaj";
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  const mobile = /Mobile|iPhone|Android.*Mobile/.test(userAgent) ? " (mobitel)" : "";
  if (browser && system) return `${browser}, ${system}${mobile}`;
  return browser ?? system ?? "Nepoznat uređaj";
}
