import { describe, expect, it } from "vitest";
import { deliveryStatus } from "./delivery-status.ts";

const attempt = (statusCode: number | null) => ({ id: "a", number: 1, startedAt: "2026-11-21T10:00:00.000Z", durationMs: 5, statusCode, error: statusCode ? null : "ECONNREFUSED", responseBody: null, manual: false });

describe("deliveryStatus", () => {
  it("shows a retrying delivery whose attempts failed as failed, never as in progress", () => {
    expect(deliveryStatus({ status: "pending", attemptCount: 1, attempts: [attempt(500)] }).label).toBe("Neuspjelo, ponovit će se");
    expect(deliveryStatus({ status: "pending", attemptCount: 2, attempts: [attempt(500), attempt(null)] }).cls).toBe("badge danger");
  });
  it("tells waiting, delivered and finally failed apart", () => {
    expect(deliveryStatus({ status: "pending", attemptCount: 0, attempts: [] }).label).toBe("Čeka slanje");
    expect(deliveryStatus({ status: "succeeded", attemptCount: 1, attempts: [attempt(200)] }).label).toBe("Isporučeno");
    expect(deliveryStatus({ status: "failed", attemptCount: 7, attempts: [attempt(500)] }).label).toBe("Neuspjelo");
  });
});
