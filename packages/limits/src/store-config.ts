/** Which store the limiter uses, from the settings the API and the portal share. */
import type { StoreConfig } from "./types.ts";

export interface StoreSettings {
  UPSTASH_REDIS_REST_URL?: string;
  UPSTASH_REDIS_REST_TOKEN?: string;
  /** `host:port,host:port,…`: seed nodes of a Redis Cluster */
  REDIS_CLUSTER_NODES?: string;
  /** ACL credentials for REDIS_CLUSTER_NODES (the user name is optional) */
  REDIS_USERNAME?: string;
  REDIS_PASSWORD?: string;
  /** `redis://`, `rediss://`, or `redis+cluster://` / `rediss+cluster://` for a cluster */
  REDIS_URL?: string;
}

const CLUSTER_URL = /^rediss?\+cluster:\/\//i;

/** Upstash REST, then a Redis Cluster (REDIS_CLUSTER_NODES, or a cluster REDIS_URL), then one Redis, then in-process. */
export function storeConfigFrom(s: StoreSettings): StoreConfig {
  if (s.UPSTASH_REDIS_REST_URL && s.UPSTASH_REDIS_REST_TOKEN) {
    return { kind: "upstash", url: s.UPSTASH_REDIS_REST_URL, token: s.UPSTASH_REDIS_REST_TOKEN };
  }
  if (s.REDIS_CLUSTER_NODES) {
    const nodes = s.REDIS_CLUSTER_NODES.split(",").map((node) => node.trim()).join(",");
    const userinfo =
      s.REDIS_PASSWORD === undefined ? "" : `${encodeURIComponent(s.REDIS_USERNAME ?? "")}:${encodeURIComponent(s.REDIS_PASSWORD)}@`;
    return { kind: "cluster", url: `redis+cluster://${userinfo}${nodes}` };
  }
  if (s.REDIS_URL && CLUSTER_URL.test(s.REDIS_URL)) return { kind: "cluster", url: s.REDIS_URL };
  if (s.REDIS_URL) return { kind: "redis", url: s.REDIS_URL };
  return { kind: "memory" };
}
