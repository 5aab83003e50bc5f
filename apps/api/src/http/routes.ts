// Route table derived from the router's OpenAPI meta: the gate needs each call's endpoint group
// before the procedure runs, and metering labels both surfaces with the same route template.
import type { AnyRouter } from "@trpc/server";
import type { EndpointGroup } from "@fiskal/limits";
import type { Meta } from "../trpc.ts";

export interface RouteInfo {
  method: string;
  /** e.g. "/v1/kpd/{code}" */
  path: string;
  /** e.g. "GET /v1/kpd/{code}": the label used by metering and metrics. */
  label: string;
  procedure: string;
  group?: EndpointGroup;
  free?: boolean;
}

export interface RouteTable {
  /** Resolves a REST call; `allowed` lists the methods of a path that exists under another method. */
  matchRest(method: string, pathname: string): { route: RouteInfo; params: Record<string, string> } | { allowed: string[] } | null;
  byProcedure(path: string): RouteInfo | undefined;
  all: RouteInfo[];
}

export function buildRouteTable(router: AnyRouter): RouteTable {
  const all: RouteInfo[] = [];
  for (const [procedure, proc] of Object.entries(router._def.procedures as Record<string, { _def: { meta?: Meta } }>)) {
    const openapi = proc._def.meta?.openapi;
    if (!openapi) continue;
    all.push({
      method: openapi.method,
      path: openapi.path,
      label: `${openapi.method} ${openapi.path}`,
      procedure,
      group: proc._def.meta?.group,
      free: proc._def.meta?.free,
    });
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
  return {
    all,
    byProcedure: (p) => byProc.get(p),
    matchRest(method, pathname) {
      let allowed: string[] | null = null;
      for (const c of compiled) {
        const m = c.re.exec(pathname);
        if (!m) continue;
        if (c.route.method === method) {
          const params: Record<string, string> = {};
          for (const [k, v] of Object.entries(m.groups ?? {})) params[k] = safeDecode(v);
          return { route: c.route, params };
        }
        (allowed ??= []).push(c.route.method);
      }
      return allowed ? { allowed } : null;
    },
  };
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
