// The portal's quota bar leaves out the calls the API does not count against the daily quota
// (@fiskal/usage FREE_ENDPOINTS): that list must be exactly the routes the gate treats as free
// status calls (metered under their own allowance).
import { expect, it } from "vitest";
import { FREE_ENDPOINTS } from "@fiskal/usage";
import { procedureMetas } from "../src/http/routes.ts";
import { appRouter } from "../src/router.ts";

it("FREE_ENDPOINTS names exactly the free routes", () => {
  const free: string[] = [];
  for (const [, meta] of procedureMetas(appRouter)) {
    const openapi = meta.openapi;
    if (openapi && (meta.free === true || meta.statusLimits !== undefined)) free.push(`${openapi.method} ${openapi.path}`);
  }
  expect(free).toContain("GET /v1/limits");
  expect([...FREE_ENDPOINTS].sort()).toEqual(free.sort());
});
