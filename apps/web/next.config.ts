import { readFileSync } from "node:fs";
import type { NextConfig } from "next";
import { STATIC_SECURITY_HEADERS } from "./src/lib/security-headers";

const config: NextConfig = {
  // Workspace packages ship TypeScript sources, no build step.
  transpilePackages: ["@fiskal/accounts", "@fiskal/db", "@fiskal/fiscal", "@fiskal/limits", "@fiskal/mail", "@fiskal/usage", "@fiskal/webhooks"],
  // Native or driver-heavy modules are loaded by Node at run time instead of being bundled.
  serverExternalPackages: ["pg", "@prisma/client", "@prisma/adapter-pg", "@node-rs/argon2", "@electric-sql/pglite", "pg-boss"],
  // The limiter's Lua script, inlined at build time (packages/limits/src/script.ts reads
  // process.env.FISKAL_MULTI_WINDOW_LUA only inside Next): a bundled module cannot read it beside itself.
  env: { FISKAL_MULTI_WINDOW_LUA: readFileSync(new URL("../../packages/limits/src/multi-window.lua", import.meta.url), "utf8") },
  poweredByHeader: false,
  reactStrictMode: true,
  typescript: { tsconfigPath: "tsconfig.json" },
  // forbidden(): the admin page answers a customer with 403.
  experimental: { authInterrupts: true },
  // The per-request headers (Content-Security-Policy with its nonce, HSTS) come from src/proxy.ts.
  async headers() {
    return [{ source: "/:path*", headers: [...STATIC_SECURITY_HEADERS] }];
  },
};

export default config;
