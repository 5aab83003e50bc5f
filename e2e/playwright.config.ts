// Browser tests of the built portal and the API together, in Debian's Chromium.
import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "./tests",
  outputDir: "./test-results/output",
  globalSetup: "./src/global-setup.ts",
  globalTeardown: "./src/global-teardown.ts",
  // Every test works in an account of its own (newUser), in browser contexts with client addresses of
  // their own, so tests run side by side, those of one file too. The few that change what every
  // account sees (the operator's two-factor rule, the count of pending upgrades, the portal's log) take
  // Playwright's `-exclusive-` lock and run while no other test does (docs/decisions.md).
  // One worker per core: the API, the portal and Chromium share the same cores, and more workers than
  // cores only turn waits into timeouts. E2E_WORKERS overrides the count, e.g. 1 to watch one test.
  workers: Number(process.env.E2E_WORKERS ?? Math.max(2, availableParallelism())),
  fullyParallel: true,
  retries: 0,
  forbidOnly: true,
  timeout: 90_000,
  // The build (when sources changed) and the quality gates over every page at two widths take minutes.
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    locale: "hr-HR",
    timezoneId: "Europe/Zagreb",
    viewport: { width: 1280, height: 800 },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
