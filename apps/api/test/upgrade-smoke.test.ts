// Smoke tests of the places that reach into third-party internals (UPGRADING.md lists each). They
// fail on the upgrade that breaks the assumption, before any behaviour test has to be read.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TRPCError, type AnyProcedure } from "@trpc/server";
import { getErrorShape } from "@trpc/server/unstable-core-do-not-import";
import { REPO_ROOT } from "../src/env.ts";
import { ApiError } from "../src/errors.ts";
import { procedureMetas } from "../src/http/routes.ts";
import { appRouter } from "../src/router.ts";

const require = createRequire(import.meta.url);

describe("a procedure's _def (trpc.ts directCall, the REST path)", () => {
  const def = procedureMetas(appRouter).find(([path]) => path === "oib.validate")![3]._def as AnyProcedure["_def"] & {
    inputs: unknown[];
    output?: unknown;
    resolver?: unknown;
    middlewares: { _type?: string }[];
  };

  it("keeps the input schemas, the output schema and the resolver, and marks the validating middlewares", () => {
    expect(def.inputs).toHaveLength(1);
    expect(typeof (def.inputs[0] as { parse?: unknown }).parse).toBe("function");
    expect(typeof (def.output as { parse?: unknown }).parse).toBe("function");
    expect(typeof def.resolver).toBe("function");
    // the API-key middleware, .input(), .output(), the resolver's own
    expect(def.middlewares.map((m) => m._type)).toEqual([undefined, "input", "output", undefined]);
  });

  it("no patch of @trpc/server is installed", () => {
    const workspace = readFileSync(path.join(REPO_ROOT, "pnpm-workspace.yaml"), "utf8");
    expect(workspace).not.toMatch(/@trpc\/server@[^']*':\s+patches\//);
    expect(path.dirname(require.resolve("@trpc/server/package.json"))).not.toMatch(/patch_hash/);
  });
});

describe("router._def (http/routes.ts procedureMetas, http/server.ts writeTrpcError)", () => {
  /** The procedures as the public router object exposes them: nested namespaces down to callables. */
  function leaves(node: object, prefix = ""): string[] {
    return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => {
      if (k === "_def" || k.startsWith("create")) return [];
      const p = prefix ? `${prefix}.${k}` : k;
      if (typeof v === "function") return [p];
      return v && typeof v === "object" ? leaves(v, p) : [];
    });
  }

  it("_def.procedures lists every procedure by dotted path, with its meta and type", () => {
    const metas = procedureMetas(appRouter);
    expect(metas.map(([p]) => p).sort()).toEqual(leaves(appRouter).sort());
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
