// Smoke tests of the places that reach into third-party internals (UPGRADING.md lists each). They
// fail on the upgrade that breaks the assumption, before any behaviour test has to be read.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { TRPCError } from "@trpc/server";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import { REPO_ROOT } from "../src/env.ts";
import { ApiError } from "../src/errors.ts";
import { procedureMetas } from "../src/http/routes.ts";
import { appRouter } from "../src/router.ts";

const require = createRequire(import.meta.url);

describe("the @trpc/server patch (patches/, pnpm-workspace.yaml patchedDependencies)", () => {
  const workspace = readFileSync(path.join(REPO_ROOT, "pnpm-workspace.yaml"), "utf8");
  const patched = /^\s+'@trpc\/server@([^']+)':\s+(\S+)$/m.exec(workspace);

  it("names the installed version, and every file it changes carries the change", () => {
    expect(patched).not.toBeNull();
    const [, version, patchFile] = patched!;
    const pkgDir = path.dirname(require.resolve("@trpc/server/package.json"));
    expect(JSON.parse(readFileSync(path.join(pkgDir, "package.json"), "utf8")).version).toBe(version);
    const patch = readFileSync(path.join(REPO_ROOT, patchFile!), "utf8");
    const files = [...patch.matchAll(/^\+\+\+ b\/(\S+)$/gm)].map((m) => m[1]!);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(readFileSync(path.join(pkgDir, file), "utf8"), file).toContain("Fiskal patch");
  });

  it("the patched object spread copies like the original, and keeps a \"__proto__\" own key as data", async () => {
    const [, , patchFile] = patched!;
    const pkgDir = path.dirname(require.resolve("@trpc/server/package.json"));
    const chunk = [...readFileSync(path.join(REPO_ROOT, patchFile!), "utf8").matchAll(/^\+\+\+ b\/(\S+\.mjs)$/gm)][0]![1]!;
    const source = readFileSync(path.join(pkgDir, chunk), "utf8");
    // the chunk exports the helper under a one-letter name: read it from the export list
    const alias = /_objectSpread2 as (\w+)/.exec(source)![1]!;
    const mod = (await import(pathToFileURL(path.join(pkgDir, chunk)).href)) as Record<string, (...a: object[]) => object>;
    const spread = mod[alias]!;
    const sym = Symbol("s");
    expect(spread({ a: 1 }, { b: 2, [sym]: 3 }, { a: 4 })).toEqual({ a: 4, b: 2, [sym]: 3 });
    const withProto = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as object;
    const out = spread({}, withProto) as Record<string, unknown>;
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
  });
});

describe("router._def (http/routes.ts procedureMetas, http/server.ts writeTrpcError)", () => {
  /** The procedures as the public router object exposes them: nested namespaces down to callables. */
  function leaves(node: Record<string, unknown>, prefix = ""): string[] {
    return Object.entries(node).flatMap(([k, v]) => {
      if (k === "_def" || k.startsWith("create")) return [];
      const p = prefix ? `${prefix}.${k}` : k;
      if (typeof v === "function") return [p];
      return v && typeof v === "object" ? leaves(v as Record<string, unknown>, p) : [];
    });
  }

  it("_def.procedures lists every procedure by dotted path, with its meta and type", () => {
    const metas = procedureMetas(appRouter);
    expect(metas.map(([p]) => p).sort()).toEqual(leaves(appRouter as unknown as Record<string, unknown>).sort());
    for (const [p, meta, type] of metas) {
      expect(["query", "mutation"], p).toContain(type);
      expect(meta.openapi?.path ?? "(tRPC only)", p).toMatch(/^\/v1\/|\(tRPC only\)/);
    }
    expect(metas.find(([p]) => p === "kpd.get")![1]).toMatchObject({ group: "kpd", openapi: { method: "GET", path: "/v1/kpd/{code}" } });
  });

  it("_def._config carries the error formatter getErrorShape applies", () => {
    expect(typeof appRouter._def._config.errorFormatter).toBe("function");
    const error = new TRPCError({ code: "UNAUTHORIZED", cause: new ApiError("unauthorized", "Nedostaje API ključ.") });
    const shape = getErrorShape({ config: appRouter._def._config, error, type: "query", path: "limits.get", input: undefined, ctx: undefined });
    expect(shape.data).toMatchObject({ code: "unauthorized", httpStatus: 401, message: "Nedostaje API ključ." });
  });
});
