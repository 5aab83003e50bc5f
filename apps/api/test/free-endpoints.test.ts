// The portal's quota bar leaves out the calls the API does not count against the daily quota
// (@fiskal/usage FREE_ENDPOINTS): that list must be exactly the routes the gate treats as free
// status calls (metered under their own allowance).
import { expect, it } from "vitest";
import { FREE_ENDPOINTS } from "@fiskal/usage";
import { appRouter } from "../src/router.ts";

it("FREE_ENDPOINTS names exactly the free routes", () => {
  const free: string[] = [];
  for (const proc of Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Record<string, unknown> } }>)) {
    const meta = proc._def.meta;
    const openapi = meta?.openapi as { method: string; path: string } | undefined;
    if (openapi && (meta?.free === true || meta?.statusLimits !== undefined)) free.push(`${openapi.method} ${openapi.path}`);
  }
  expect(free).toContain("GET /v1/limits");
  expect([...FREE_ENDPOINTS].sort()).toEqual(free.sort());
});
