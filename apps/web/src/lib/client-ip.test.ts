import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip.ts";

describe("clientIp", () => {
  it("takes the hop written by the nearest trusted proxy, not what the client claims", () => {
    // client claimed 203.0.113.7; our proxy appended the address it saw
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7, 198.51.100.9" }))).toBe("198.51.100.9");
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7, 198.51.100.9, 10.0.0.2" }), 2)).toBe("198.51.100.9");
  });
  it("uses the only entry when there is one (set by next start from the socket)", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "192.0.2.1" }))).toBe("192.0.2.1");
    expect(clientIp(new Headers({ "x-forwarded-for": "192.0.2.1" }), 3)).toBe("192.0.2.1");
  });
  it("reads plain header records as next-auth passes them", () => {
    expect(clientIp({ "x-forwarded-for": ["192.0.2.1"] })).toBe("192.0.2.1");
    expect(clientIp({ "x-forwarded-for": "192.0.2.5, 192.0.2.6" })).toBe("192.0.2.6");
  });
  it("falls back to a shared bucket when nothing identifies the client", () => {
    expect(clientIp(undefined)).toBe("unknown");
    expect(clientIp(new Headers())).toBe("unknown");
    expect(clientIp({ "x-real-ip": "198.51.100.2" })).toBe("unknown");
  });
});
