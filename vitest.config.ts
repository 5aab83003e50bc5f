// One Vitest run over every package and app; each project keeps its own config where it has one.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const at = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  test: {
    projects: [at("./packages/*"), at("./apps/api"), at("./apps/web")],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
