/**
 * The seed nodes of a Redis Cluster requester (cluster-requester.ts), from a
 * `redis+cluster://[user:password@]host:port,host:port,…` URL (`rediss+cluster://` for TLS).
 */
import net from "node:net";

export interface ClusterNodeAddress {
  host: string;
  port: number;
}

export interface ClusterTarget {
  /** seed nodes: the slot map is asked of them */
  nodes: ClusterNodeAddress[];
  username?: string;
  password?: string;
  tls: boolean;
}

const URL_SHAPE = "redis+cluster://[user:password@]host:port,host:port,… (or rediss+cluster:// for TLS)";

/** Parses `redis+cluster://[user:password@]host:port,host:port,…` (or `rediss+cluster://`). */
export function parseClusterUrl(url: string): ClusterTarget {
  const scheme = /^(rediss?)\+cluster:\/\//i.exec(url);
  if (!scheme) {
    const shown = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? "(no scheme)";
    throw new Error(`Redis Cluster URL must look like ${URL_SHAPE}; got ${shown}//…`);
  }
  let rest = url.slice(scheme[0].length);
  const tail = rest.search(/[/?#]/);
  if (tail !== -1) {
    const after = rest.slice(tail);
    if (!/^\/?(0)?$/.test(after)) {
      throw new Error(`Redis Cluster URL: a cluster has only database 0, and takes no path or query (got "${after}")`);
    }
    rest = rest.slice(0, tail);
  }
  let username: string | undefined;
  let password: string | undefined;
  const at = rest.lastIndexOf("@");
  if (at !== -1) {
    const userinfo = rest.slice(0, at);
    rest = rest.slice(at + 1);
    const colon = userinfo.indexOf(":");
    try {
      const user = decodeURIComponent(colon === -1 ? userinfo : userinfo.slice(0, colon));
      username = user === "" ? undefined : user;
      if (colon !== -1) password = decodeURIComponent(userinfo.slice(colon + 1));
    } catch {
      throw new Error("Redis Cluster URL: the user name or password is not valid percent-encoding");
    }
  }
  if (rest === "") throw new Error(`Redis Cluster URL: name at least one node, as in ${URL_SHAPE}`);
  const nodes = rest.split(",").map((part) => parseAddress(part));
  return { nodes, username, password, tls: scheme[1]!.toLowerCase() === "rediss" };
}

function parseAddress(part: string): ClusterNodeAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]+))(?::(\d+))?$/.exec(part);
  if (!m) {
    throw new Error(
      part === "" ? "Redis Cluster URL: empty node between commas" : `Redis Cluster URL: invalid node "${part}" (expected host:port)`,
    );
  }
  const port = m[3] === undefined ? 6379 : Number(m[3]);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new Error(`Redis Cluster URL: invalid port in "${part}"`);
  return { host: (m[1] ?? m[2])!, port };
}

/** A node's id, "host:port" (IPv6 hosts in brackets): the key of the node table, and the name `shardOf` gives. */
export const nodeId = (host: string, port: number): string => (net.isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`);
