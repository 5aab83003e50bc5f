// Session cookies are Secure and carry the __Secure-/__Host- prefixes exactly when the portal is
// served over https (next-auth names them from useSecureCookies).
import { afterEach, describe, expect, it, vi } from "vitest";

const saved = { ...process.env };

afterEach(() => {
  for (const k of ["PORTAL_URL", "NEXTAUTH_URL", "DATABASE_URL", "NEXTAUTH_SECRET"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  vi.resetModules();
});

async function optionsFor(portalUrl: string) {
  process.env.DATABASE_URL = "postgres://postgres@127.0.0.1:1/unused";
  process.env.NEXTAUTH_SECRET = "test-secret-0123456789abcdef";
  process.env.PORTAL_URL = portalUrl;
  delete process.env.NEXTAUTH_URL;
  const { authOptions } = await import("./auth");
  return authOptions();
}

describe("session cookies", () => {
  it("are secure with prefixed names on https", async () => {
    expect((await optionsFor("https://portal.fiskal.hr")).useSecureCookies).toBe(true);
  });

  it("stay plain on http (local runs, tests)", async () => {
    expect((await optionsFor("http://127.0.0.1:3000")).useSecureCookies).toBe(false);
  });
});
