import { describe, expect, it } from "vitest";
import { disabledReasonText, endpointLabel, windowLabel } from "./request-labels.ts";
import { formatDuration } from "./format.ts";

describe("Croatian labels of the request log", () => {
  it("names unmatched routes and windows without English", () => {
    expect(endpointLabel("GET unmatched")).toBe("GET — nepoznata putanja");
    expect(endpointLabel("trpc unmatched")).toBe("tRPC — nepoznata procedura");
    expect(endpointLabel("POST /v1/validate/oib")).toBe("POST /v1/validate/oib");
    expect(windowLabel("minute")).toBe("u minuti");
    expect(windowLabel("endpoint:kpd")).toBe("ograničenje endpointa (kpd), u minuti");
    expect(disabledReasonText("The endpoint answered 410 Gone")).not.toMatch(/answered|endpoint/);
  });
});

describe("formatDuration", () => {
  it("writes seconds as a human duration", () => {
    expect(formatDuration(62_888)).toBe("17 h 28 min");
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(60)).toBe("1 min");
    expect(formatDuration(3_600)).toBe("1 h");
    expect(formatDuration(90)).toBe("1 min 30 s");
    expect(formatDuration(7 * 86_400)).toBe("7 dana");
    expect(formatDuration(86_400 + 3_600)).toBe("1 dan 1 h");
    expect(formatDuration(0)).toBe("0 s");
  });
});
