// The API's `start` script (`VAR=value … node <args>`) split for spawning node directly, without the
// pnpm wrapper, so that the child's pid (and its RSS) is the API's own. Used by the e2e stack and
// the benchmark so that both run exactly what production runs.
import { readFileSync } from "node:fs";
import path from "node:path";

/** @returns {{ env: Record<string, string>, args: string[] }} */
export function apiStartCommand(apiDir) {
  const script = JSON.parse(readFileSync(path.join(apiDir, "package.json"), "utf8")).scripts.start;
  const words = script.split(" ");
  const env = {};
  while (/^[A-Z_]+=/.test(words[0] ?? "")) {
    const [name, ...value] = words.shift().split("=");
    env[name] = value.join("=");
  }
  if (words.shift() !== "node") throw new Error(`the API start script must run node: ${script}`);
  return { env, args: words };
}
