import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip.ts";

describe("clientIp", () => {
  it("takes the first forwarded hop", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" }))).toBe("203.0.113.7");
  });
  it("reads plain header records as next-auth passes them", () => {
    expect(clientIp({ "x-real-ip": "198.51.100.2" })).toBe("198.51.100.2");
    expect(clientIp({ "x-forwarded-for": ["192.0.2.1"] })).toBe("192.0.2.1");
  });
  it("falls back to a shared bucket when nothing identifies the client", () => {
    expect(clientIp(undefined)).toBe("unknown");
    expect(clientIp(new Headers())).toBe("unknown");
  });
});
