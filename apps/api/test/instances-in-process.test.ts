// Several APIs in one process (as tests start them) keep their state to themselves: an error raised
// before a request has a context names the portal of the API that answered it, and each server
// numbers its requests under its own prefix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startHarness, type Harness } from "./harness.ts";

let a: Harness;
let b: Harness;

beforeAll(async () => {
  a = await startHarness({ store: "memory", config: { portalUrl: "http://portal-a.test" } });
  b = await startHarness({ store: "memory", config: { portalUrl: "http://portal-b.test" } });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

describe("two APIs in one process", () => {
  it("name their own portal in errors raised before the request has a context", async () => {
    for (const [h, portal] of [[a, "http://portal-a.test"], [b, "http://portal-b.test"]] as const) {
      // tRPC refuses the content type, and a batch, before it creates a context
      const media = await call(h.url, "POST", "/trpc/oib.validate", { rawBody: "x", headers: { "content-type": "text/plain" } });
      expect(media.status).toBe(415);
      expect(media.body.error.data.doc_url).toBe(`${portal}/docs/errors#unsupported_media_type`);
      const batch = await call(h.url, "GET", "/trpc/oib.validate,oib.validate?batch=1&input={}");
      expect(batch.status).toBe(400);
      expect(batch.body.error.data.doc_url).toBe(`${portal}/docs/errors#validation_error`);
    }
  });

  it("number their requests each under its own prefix", async () => {
    const idsOf = async (h: Harness) => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await call(h.url, "GET", "/healthz")).headers.get("x-request-id")!);
      return ids;
    };
    const [fromA, fromB] = [await idsOf(a), await idsOf(b)];
    const prefix = (id: string) => id.slice(0, -6);
    expect(new Set(fromA.map(prefix)).size).toBe(1);
    expect(new Set(fromB.map(prefix)).size).toBe(1);
    expect(prefix(fromA[0]!)).not.toBe(prefix(fromB[0]!));
    // consecutive within each server
    for (const ids of [fromA, fromB]) {
      const n = ids.map((id) => parseInt(id.slice(-6), 36));
      expect(n).toEqual([n[0], n[0]! + 1, n[0]! + 2]);
    }
  });
});
