/**
 * The @upstash/redis client's commands on plain Redis, for both TCP requesters (redis-requester.ts
 * and cluster-requester.ts), which differ only in how one command reaches a server.
 *
 * - Upstash scripts start with `#!lua flags=allow-key-locking`, which plain Redis 7 rejects: the
 *   line is removed, and the hash Upstash asks for (of the original text) is mapped to the stripped
 *   script's hash. At most MAX_SCRIPTS are remembered (a process runs a handful).
 * - `EVALSHA` of a hash not seen yet answers `NOSCRIPT`, as Upstash does, so that the client sends
 *   the script itself with `EVAL`. A known script runs as `EVALSHA` of the stripped hash, and as
 *   `EVAL` of its body when the server answers `NOSCRIPT` (its script cache was flushed): the
 *   transport's `evalScript` does that, each in its own way (the cluster follows redirections).
 * - `SCRIPT LOAD` loads the stripped body and answers the original's hash.
 * - Pipelines (`req.path`) are not supported over TCP; a command's error reply becomes `{ error }`.
 */
import { createHash } from "node:crypto";
import type { UpstashRequest, UpstashResponse } from "@upstash/redis";
import { RedisReplyError, type Arg, type Reply } from "./resp.ts";

const MAX_SCRIPTS = 64;
const SHEBANG = /^\s*#!lua[^\n]*\n/;

const sha1 = (s: string): string => createHash("sha1").update(s).digest("hex");

export interface StrippedScript {
  /** the hash of `body`, the one the server knows it by */
  sha: string;
  /** the script without its shebang line */
  body: string;
}

/** How a requester sends a command to the server(s). */
interface ScriptTransport {
  /**
   * `args` as Upstash sent them after EVALSHA/EVAL (the hash or text, numkeys, keys, arguments),
   * run as EVALSHA of `script.sha`, and as EVAL of `script.body` if the server answers NOSCRIPT.
   */
  evalScript(script: StrippedScript, args: readonly Arg[]): Promise<Reply>;
  /** any other command, sent as it is */
  send(args: Arg[]): Promise<Reply>;
}

/** Upstash's hashes of the scripts seen so far → their stripped form. */
class ScriptMap {
  private readonly scripts = new Map<string, StrippedScript>();

  /** The stripped form of `original`, remembered under the original's hash. */
  register(original: string): StrippedScript {
    const body = original.replace(SHEBANG, "");
    const script = { sha: sha1(body), body };
    if (this.scripts.size < MAX_SCRIPTS) this.scripts.set(sha1(original), script);
    return script;
  }

  /** The script Upstash knows by `sha`, if it was registered. */
  get(sha: string): StrippedScript | undefined {
    return this.scripts.get(sha);
  }
}

/** One Upstash command (its name and arguments) over `transport`, scripts handled as above. */
export function upstashCommands(transport: ScriptTransport): (command: string, args: readonly Arg[]) => Promise<Reply> {
  const scripts = new ScriptMap();
  return (command, args) => {
    const name = command.toLowerCase();
    if (name === "evalsha") {
      const known = scripts.get(String(args[0]));
      // Upstash answers NOSCRIPT by sending the script itself with `eval`
      if (!known) return Promise.reject(new RedisReplyError("NOSCRIPT No matching script. Please use EVAL."));
      return transport.evalScript(known, args);
    }
    if (name === "eval") return transport.evalScript(scripts.register(String(args[0])), args);
    if (name === "script" && String(args[0]).toLowerCase() === "load" && args[1] !== undefined) {
      const original = String(args[1]);
      const script = scripts.register(original);
      return transport.send(["SCRIPT", "LOAD", script.body]).then(() => sha1(original));
    }
    return transport.send([command, ...args]);
  };
}

/** The `request` of an @upstash/redis `Requester` that runs single commands with `execute`. */
export function upstashRequest(
  execute: (command: string, args: readonly Arg[]) => Promise<Reply>,
): <TResult>(req: UpstashRequest) => Promise<UpstashResponse<TResult>> {
  return <TResult>(req: UpstashRequest): Promise<UpstashResponse<TResult>> => {
    if (req.path && req.path.length > 0) return Promise.resolve({ error: "ERR pipelines are not supported over TCP" });
    const body = req.body as Arg[];
    return execute(String(body[0]), body.slice(1)).then(
      (result) => ({ result: result as TResult }),
      (err: Error) => ({ error: err.message }),
    );
  };
}
