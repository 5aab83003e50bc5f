// WEBHOOKS_ALLOW_PRIVATE switches the private-address protection off: every process that creates
// the webhooks with allowPrivate says so on stderr once, and says nothing when it is off.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const dir = path.dirname(fileURLToPath(import.meta.url));
const script = (allowPrivate: boolean) => `
import { createDb } from "@fiskal/db";
import { createWebhooks } from "./src/index.ts";
const url = "postgresql://127.0.0.1:9/none";
const w = createWebhooks({ db: createDb(url, { max: 1 }), databaseUrl: url, allowPrivate: ${allowPrivate} });
await w.close();
`;

function run(allowPrivate: boolean): string {
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script(allowPrivate)], { cwd: path.join(dir, ".."), encoding: "utf8", timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stderr;
}

describe("allowPrivate", () => {
  it("logs a warning when the private-address protection is off, and none when it is on", () => {
    const on = run(true);
    expect(on.match(/WEBHOOKS_ALLOW_PRIVATE is on/g)).toHaveLength(1);
    expect(on).toContain("private-address protection is off");
    expect(run(false)).not.toContain("WEBHOOKS_ALLOW_PRIVATE");
  });
});
