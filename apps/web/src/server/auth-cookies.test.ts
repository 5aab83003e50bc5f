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

describe("session lifetime", () => {
  it("the token next-auth signs at sign-in expires 7 days after it, as the session does", async () => {
    const options = await optionsFor("http://127.0.0.1:3000");
    const { encode, decode } = await import("next-auth/jwt");
    // What next-auth's credentials callback does: encode with the options' jwt settings.
    const secret = options.secret!;
    const token = await encode({ ...options.jwt, secret, token: { uid: "u" } });
    const claims = await decode({ ...options.jwt, secret, token });
    expect(options.session?.maxAge).toBe(7 * 24 * 60 * 60);
    expect(Number(claims?.exp) - Number(claims?.iat)).toBe(7 * 24 * 60 * 60);
  });
});
