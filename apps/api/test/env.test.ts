// Which rate-limit store the environment selects, and how a bad setting is reported.
import { describe, expect, it } from "vitest";
import { loadEnv } from "../src/env.ts";

const env = (vars: Record<string, string>) => loadEnv(vars as NodeJS.ProcessEnv);
const upstash = { UPSTASH_REDIS_REST_URL: "https://eu1.example.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t0ken" };

describe("rate-limit store", () => {
  it("is in-process without Redis settings, one Redis with a redis:// REDIS_URL", () => {
    expect(env({}).store).toEqual({ kind: "memory" });
    expect(env({ REDIS_URL: "redis://127.0.0.1:6379" }).store).toEqual({ kind: "redis", url: "redis://127.0.0.1:6379" });
    expect(env({ REDIS_URL: "rediss://cache:6380/2" }).store).toEqual({ kind: "redis", url: "rediss://cache:6380/2" });
  });

  it("is a Redis Cluster with a redis+cluster:// or rediss+cluster:// REDIS_URL", () => {
    for (const url of ["redis+cluster://10.0.0.1:7000,10.0.0.2:7000", "rediss+cluster://u:p@a:7000,b:7001"]) {
      expect(env({ REDIS_URL: url }).store).toEqual({ kind: "cluster", url });
    }
  });

  it("is a Redis Cluster with REDIS_CLUSTER_NODES, with credentials encoded into the URL", () => {
    expect(env({ REDIS_CLUSTER_NODES: "10.0.0.1:7000, 10.0.0.2:7001,[::1]:7002" }).store).toEqual({
      kind: "cluster",
      url: "redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002",
    });
    expect(env({ REDIS_CLUSTER_NODES: "a:1,b:2", REDIS_PASSWORD: "p@ss:1" }).store).toEqual({
      kind: "cluster",
      url: "redis+cluster://:p%40ss%3A1@a:1,b:2",
    });
    expect(env({ REDIS_CLUSTER_NODES: "a:1", REDIS_USERNAME: "fiskal", REDIS_PASSWORD: "s" }).store).toEqual({
      kind: "cluster",
      url: "redis+cluster://fiskal:s@a:1",
    });
  });

  it("prefers Upstash REST, then the cluster, then one Redis", () => {
    const all = { ...upstash, REDIS_CLUSTER_NODES: "a:1", REDIS_URL: "redis://b:2" };
    expect(env(all).store.kind).toBe("upstash");
    const { UPSTASH_REDIS_REST_TOKEN: _token, ...withoutToken } = all;
    expect(env(withoutToken).store).toEqual({ kind: "cluster", url: "redis+cluster://a:1" });
    expect(env({ REDIS_URL: "redis+cluster://c:3", ...upstash }).store.kind).toBe("upstash");
    expect(env({ REDIS_URL: "redis+cluster://c:3", REDIS_CLUSTER_NODES: "a:1" }).store).toEqual({ kind: "cluster", url: "redis+cluster://a:1" });
  });

  it("refuses malformed cluster settings", () => {
    for (const nodes of ["a:1,,b:2", "a:1 b:2", "redis://a:1", "a:70000", "a:0", "user@a:1"]) {
      expect(() => env({ REDIS_CLUSTER_NODES: nodes }), nodes).toThrow(/REDIS_CLUSTER_NODES: expected "host:port/);
    }
    expect(() => env({ REDIS_CLUSTER_NODES: "a:1", REDIS_USERNAME: "fiskal" })).toThrow(/REDIS_USERNAME: set REDIS_PASSWORD too/);
  });
});
