// Route table derived from the router's procedure meta (OpenAPI method and path, and the route
// policy of trpc.ts): the gate needs each call's endpoint group before the procedure runs, the
// dispatcher its ETag, the OpenAPI document all of it, and metering labels both surfaces with the
// same route template.
import type { AnyProcedure, AnyRouter } from "@trpc/server";
import type { Meta, RoutePolicy } from "../trpc.ts";

export interface RouteInfo extends RoutePolicy {
  method: string;
  /** e.g. "/v1/kpd/{code}" */
  path: string;
  /** e.g. "GET /v1/kpd/{code}": the label used by metering and metrics. */
  label: string;
  procedure: string;
  /** The method /trpc takes the procedure with: GET for a query, POST for a mutation. */
  trpcMethod: "GET" | "POST";
}

export interface RouteTable {
  /** Resolves a REST call; `allowed` lists the methods of a path that exists under another method. */
  matchRest(method: string, pathname: string): { route: RouteInfo; params: Record<string, string> } | { allowed: string[] } | null;
  byProcedure(path: string): RouteInfo | undefined;
  all: RouteInfo[];
}

export function buildRouteTable(router: AnyRouter): RouteTable {
  const all: RouteInfo[] = [];
  for (const [procedure, meta, type] of procedureMetas(router)) {
    const { openapi, group, etag, idempotent, statusLimits, download } = meta;
    if (!openapi) continue;
    const trpcMethod = type === "query" ? "GET" : "POST";
    all.push({ method: openapi.method, path: openapi.path, label: `${openapi.method} ${openapi.path}`, procedure, trpcMethod, group, etag, idempotent, statusLimits, download });
  }
  // Static segments win over parameters: /v1/kpd/search before /v1/kpd/{code}.
  const compiled = all
    .map((route) => ({
      route,
      params: (route.path.match(/\{/g) ?? []).length,
      re: new RegExp(
        "^" + route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)") + "/?$",
      ),
    }))
    .sort((a, b) => a.params - b.params);
  const byProc = new Map(all.map((r) => [r.procedure, r]));
  // A path without parameters is found by one lookup ("POST /v1/validate/oib"); the templates are
  // tried in order only for the others, and for what the lookup does not know (a 404 or a 405).
  const exact = new Map(all.filter((r) => !r.path.includes("{")).map((r) => [`${r.method} ${r.path}`, r]));
  return {
    all,
    byProcedure: (p) => byProc.get(p),
    matchRest(method, pathname) {
      const known = exact.get(`${method} ${pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname}`);
      if (known) return { route: known, params: {} };
      let allowed: string[] | null = null;
      for (const c of compiled) {
        const m = c.re.exec(pathname);
        if (!m) continue;
        if (c.route.method === method) {
          const params: Record<string, string> = {};
          for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = safeDecode(v);
          return { route: c.route, params };
        }
        // Several templates may match one path (/v1/kpd/search and /v1/kpd/{code}): each method once.
        if (!(allowed ??= []).includes(c.route.method)) allowed.push(c.route.method);
      }
      return allowed ? { allowed } : null;
    },
  };
}

/**
 * Every procedure of the router with its meta, type and the procedure itself, by dotted path
 * ("kpd.get"). Reads `router._def.procedures` and each procedure's `_def`, internals of
 * @trpc/server (listed in UPGRADING.md; test/contract.test.ts guards them).
 */
export function procedureMetas(router: AnyRouter): [path: string, meta: Meta, type: "query" | "mutation" | "subscription", procedure: AnyProcedure][] {
  return Object.entries(router._def.procedures as Record<string, AnyProcedure & { _def: { meta?: Meta; type: "query" | "mutation" | "subscription" } }>).map(
    ([path, proc]) => [path, proc._def.meta ?? {}, proc._def.type, proc],
  );
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
