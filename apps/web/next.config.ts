import type { NextConfig } from "next";

const config: NextConfig = {
  // Workspace packages ship TypeScript sources, no build step.
  transpilePackages: ["@fiskal/db", "@fiskal/limits", "@fiskal/usage", "@fiskal/webhooks"],
  // Native or driver-heavy modules are loaded by Node at run time instead of being bundled.
  serverExternalPackages: ["pg", "@prisma/client", "@prisma/adapter-pg", "@node-rs/argon2", "@electric-sql/pglite", "pg-boss"],
  poweredByHeader: false,
  reactStrictMode: true,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default config;
