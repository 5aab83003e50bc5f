import { defineConfig } from "vitest/config";

export default defineConfig({
  // Building the seeded test template takes a few seconds on the first run.
  test: { include: ["src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 },
});
