import { describe, expect, it } from "vitest";
import { forwardedClientIp } from "./client-ip.ts";

describe("forwardedClientIp", () => {
  it("takes the entry trustedHops places from the right, ignoring what the client wrote further left", () => {
    expect(forwardedClientIp("203.0.113.7, 198.51.100.9", 1)).toBe("198.51.100.9");
    expect(forwardedClientIp("203.0.113.7, 198.51.100.9, 10.0.0.2", 2)).toBe("198.51.100.9");
    expect(forwardedClientIp(["203.0.113.7", "2001:db8::1"], 1)).toBe("2001:db8::1");
  });
  it("with fewer entries than trusted hops, the leftmost counts", () => {
    expect(forwardedClientIp("192.0.2.1", 3)).toBe("192.0.2.1");
  });
  it("names nobody without trusted proxies, without an entry, or when the entry is not an address", () => {
    expect(forwardedClientIp("192.0.2.1", 0)).toBeNull();
    expect(forwardedClientIp(undefined, 1)).toBeNull();
    expect(forwardedClientIp(" , ", 1)).toBeNull();
    expect(forwardedClientIp("192.0.2.1, unknown", 1)).toBeNull();
    expect(forwardedClientIp("x".repeat(300), 1)).toBeNull();
  });
});
