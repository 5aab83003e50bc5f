// What a production build leaves out: the rate limiter's test clock. The API's bundle is built with
// scripts/build-options.mjs; the same defines on a small entry show that a limiter asked for a test
// clock is refused there, and (the control) accepted in a build without them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { productionDefine } from "../scripts/build-options.mjs";

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = mkdtempSync(path.join(tmpdir(), "fiskal-build-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const ENTRY = `
import { createRateLimiter } from "@fiskal/limits";
try {
  const limiter = createRateLimiter({ store: { kind: "memory" }, prefix: "build-test", redisTimeoutMs: 100, now: () => 1_900_000_000_000 });
  const d = await limiter.decide({ identity: "acct:build-test", limits: { burst: 1, perMinute: 1, perDay: 1 } });
  console.log("decided at " + d.decidedAt);
} catch (err) {
  console.log("refused: " + err.message);
}
`;

/** Bundles the entry as scripts/build.mjs bundles the API (with `define`, or without for the control) and runs it. */
async function run(define: Record<string, string>): Promise<string> {
  const file = path.join(out, `entry-${Object.keys(define).length}.mjs`);
  await build({
    stdin: { contents: ENTRY, resolveDir: API_DIR, loader: "ts" },
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    define,
    banner: { js: "import { createRequire as __fiskalRequire } from 'node:module'; const require = __fiskalRequire(import.meta.url);" },
    logLevel: "error",
  });
  // NODE_ENV left out: the build alone must refuse the clock
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NODE_ENV;
  return execFileSync(process.execPath, [file], { env: env as NodeJS.ProcessEnv, encoding: "utf8" }).trim();
}

describe("a production build of the API", () => {
  it("refuses the rate limiter's test clock", async () => {
    expect(await run(productionDefine)).toBe("refused: a test clock is not available in a production build");
  });

  it("(control) a build without the production defines decides on the test clock", async () => {
    const { __FISKAL_PRODUCTION_BUILD__: _left, ...rest } = productionDefine;
    expect(await run(rest)).toBe("decided at 1900000000000");
  });
});
