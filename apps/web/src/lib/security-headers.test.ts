// The portal's security headers: the policy around a nonce, per environment and scheme, the fixed
// headers next.config.ts sends everywhere, and the proxy that puts them on each answer.
import { afterEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { contentSecurityPolicy, HSTS_VALUE, isHttps, newNonce, STATIC_SECURITY_HEADERS } from "./security-headers";

const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("contentSecurityPolicy", () => {
  it("production: scripts and styles only with the nonce, nothing may frame the portal", () => {
    const d = directives(contentSecurityPolicy({ nonce: "abc123", development: false, https: false }));
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("script-src")).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(d.get("style-src")).toEqual(["'self'", "'nonce-abc123'"]);
    expect(d.get("style-src-attr")).toEqual(["'unsafe-inline'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("connect-src")).toEqual(["'self'"]);
    expect(d.has("upgrade-insecure-requests")).toBe(false);
  });

  it("allows eval and unnonced styles only in development", () => {
    const dev = directives(contentSecurityPolicy({ nonce: "n", development: true, https: false }));
    expect(dev.get("script-src")).toEqual(["'self'", "'nonce-n'", "'strict-dynamic'", "'unsafe-eval'"]);
    expect(dev.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(contentSecurityPolicy({ nonce: "n", development: false, https: true })).not.toContain("unsafe-eval");
  });

  it("over https, upgrades insecure subresource requests", () => {
    expect(directives(contentSecurityPolicy({ nonce: "n", development: false, https: true })).get("upgrade-insecure-requests")).toEqual([]);
  });
});

describe("nonces and fixed headers", () => {
  it("a nonce is 128 random bits, base64, never repeated", () => {
    const nonces = new Set(Array.from({ length: 1_000 }, newNonce));
    expect(nonces.size).toBe(1_000);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });

  it("the fixed headers", () => {
    expect(Object.fromEntries(STATIC_SECURITY_HEADERS.map((h) => [h.key, h.value]))).toEqual({
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "strict-origin-when-cross-origin",
      "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()",
    });
    expect(HSTS_VALUE).toBe("max-age=31536000; includeSubDomains");
    expect(isHttps("https://portal.fiskal.hr")).toBe(true);
    expect(isHttps("HTTPS://portal.fiskal.hr")).toBe(true);
    expect(isHttps("http://127.0.0.1:3000")).toBe(false);
  });

  it("next.config.ts sends the fixed headers on every path and enables forbidden()", async () => {
    const { default: config } = await import("../../next.config");
    expect(await config.headers!()).toEqual([{ source: "/:path*", headers: [...STATIC_SECURITY_HEADERS] }]);
    expect(config.experimental?.authInterrupts).toBe(true);
  });
});

describe("proxy", () => {
  const saved = { PORTAL_URL: process.env.PORTAL_URL, NEXTAUTH_URL: process.env.NEXTAUTH_URL };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    vi.resetModules();
  });

  async function run(portalUrl: string, path = "/keys") {
    process.env.PORTAL_URL = portalUrl;
    const { proxy } = await import("../proxy");
    return proxy(new NextRequest(`http://127.0.0.1:3000${path}`));
  }

  it("puts a fresh nonce in the answer's policy and in the request Next.js renders with", async () => {
    const first = await run("http://127.0.0.1:3000");
    const second = await run("http://127.0.0.1:3000");
    const csp = first.headers.get("content-security-policy")!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toBe(contentSecurityPolicy({ nonce, development: false, https: false }));
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    // The request headers the page renders with: Next.js takes the nonce from this policy.
    expect(first.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(first.headers.get("x-middleware-request-x-nonce")).toBe(nonce);
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("sends HSTS and upgrades requests when the portal's URL is https", async () => {
    const res = await run("https://portal.fiskal.hr");
    expect(res.headers.get("strict-transport-security")).toBe(HSTS_VALUE);
    expect(res.headers.get("content-security-policy")).toMatch(/; upgrade-insecure-requests$/);
  });

  it("leaves static build output alone", async () => {
    const { config } = await import("../proxy");
    const matcher = new RegExp(`^${config.matcher[0]}$`);
    for (const path of ["/", "/keys", "/admin", "/docs/api", "/api/trpc/keys.list", "/icon.svg"]) expect(matcher.test(path), path).toBe(true);
    for (const path of ["/_next/static/chunks/app.js", "/_next/image"]) expect(matcher.test(path), path).toBe(false);
  });
});
