import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // PGlite takes a few seconds to start on this machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
