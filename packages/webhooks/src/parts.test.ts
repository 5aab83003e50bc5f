// The named parts of createWebhooks, each on its own; the whole runs against PostgreSQL in test/.
import { describe, expect, it } from "vitest";
import { quoteIdent, rateLimited } from "./manual.ts";
import { createReadiness } from "./readiness.ts";
import { endpointsQuery } from "./record.ts";
import { DEFAULT_RETRY_DELAYS_MS } from "./schedule.ts";
import { webhookSettings, workerSettings } from "./settings.ts";

describe("webhookSettings", () => {
  it("fills in the defaults: 10 s per attempt, a job abandoned after the timeout + 30 s, schema pgboss, 5 connections", () => {
    const s = webhookSettings({});
    expect(s).toMatchObject({ timeoutMs: 10_000, queue: { schema: "pgboss", jobExpireSeconds: 40, jobRetryDelaySeconds: 5 }, poolSize: 5 });
    expect(s.retryDelaysMs).toBe(DEFAULT_RETRY_DELAYS_MS);
  });

  it("derives the job expiry from the timeout, rounded up, unless given", () => {
    expect(webhookSettings({ timeoutMs: 2_500 }).queue.jobExpireSeconds).toBe(33);
    expect(webhookSettings({ timeoutMs: 2_500, jobExpireSeconds: 7 }).queue.jobExpireSeconds).toBe(7);
    expect(webhookSettings({ queueSchema: "q", jobRetryDelaySeconds: 1, poolSize: 2 })).toMatchObject({ queue: { schema: "q", jobRetryDelaySeconds: 1 }, poolSize: 2 });
  });

  it("refuses negative or non-finite retry delays", () => {
    expect(() => webhookSettings({ retryDelaysMs: [1_000, -1] })).toThrow("retryDelaysMs must be non-negative numbers");
    expect(() => webhookSettings({ retryDelaysMs: [Number.NaN] })).toThrow("retryDelaysMs");
    expect(() => webhookSettings({ retryDelaysMs: [Number.POSITIVE_INFINITY] })).toThrow("retryDelaysMs");
    expect(webhookSettings({ retryDelaysMs: [0, 5] }).retryDelaysMs).toEqual([0, 5]);
  });

  it("reports errors to the caller's onError", () => {
    const seen: unknown[] = [];
    webhookSettings({ onError: (err) => seen.push(err) }).reportError("boom");
    expect(seen).toEqual(["boom"]);
  });
});

describe("workerSettings", () => {
  it("4 deliveries at once, a poll a second and a sweep every 30 s by default", () => {
    expect(workerSettings({})).toEqual({ concurrency: 4, pollingIntervalSeconds: 1, maintenanceIntervalSeconds: 30 });
  });

  it("at least one delivery at once and a poll at most every 500 ms", () => {
    expect(workerSettings({ concurrency: 0, pollIntervalMs: 100, maintenanceIntervalSeconds: 2 })).toEqual({ concurrency: 1, pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 2 });
    expect(workerSettings({ concurrency: 8, pollIntervalMs: 2_000 })).toMatchObject({ concurrency: 8, pollingIntervalSeconds: 2 });
  });
});

describe("createReadiness", () => {
  it("prepares once for any number of callers", async () => {
    let runs = 0;
    const r = createReadiness(async () => {
      runs++;
    });
    expect(r.current()).toBeUndefined();
    await Promise.all([r.prepared(), r.prepared()]);
    await r.prepared();
    expect(runs).toBe(1);
    expect(r.current()).toBeDefined();
  });

  it("tries again after a failed preparation", async () => {
    let runs = 0;
    const r = createReadiness(async () => {
      if (++runs === 1) throw new Error("database unreachable");
    });
    await expect(r.prepared()).rejects.toThrow("database unreachable");
    expect(r.current()).toBeUndefined();
    await r.prepared();
    expect(runs).toBe(2);
  });

  it("prepares nothing once closed", async () => {
    let runs = 0;
    const r = createReadiness(async () => {
      runs++;
    });
    r.close();
    expect(r.closed).toBe(true);
    await expect(r.prepared()).rejects.toThrow("webhooks were closed");
    expect(runs).toBe(0);
  });
});

describe("record and manual sends", () => {
  it("chooses the enabled subscribed endpoints, or exactly the ones named", () => {
    const a = "0190f0e0-0000-7000-8000-000000000001";
    const subscribed = endpointsQuery(a, "invoice.fiscalized", null);
    expect(subscribed.values).toEqual([a, "invoice.fiscalized"]);
    expect(subscribed.text).toMatch(/AND enabled AND \$2 = ANY\("eventTypes"\).*FOR SHARE$/);
    const named = endpointsQuery(a, "webhook.test", ["e1"]);
    expect(named.values).toEqual([a, ["e1"]]);
    expect(named.text).not.toContain("enabled");
    expect(named.text).toMatch(/id = ANY\(\$2::uuid\[\]\).*FOR SHARE$/);
  });

  it("says when to retry a refused send", () => {
    expect(rateLimited(12)).toEqual({ ok: false, error: "rate_limited", message: "too many sends, retry in 12 s", retryAfterSeconds: 12 });
  });

  it("quotes the queue's schema as an identifier", () => {
    expect(quoteIdent("pgboss")).toBe('"pgboss"');
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
  });
});
