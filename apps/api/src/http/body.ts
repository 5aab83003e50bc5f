// Reads a JSON request body with a hard size limit; failures are ApiErrors for the common envelope.
import type { IncomingMessage } from "node:http";
import { ApiError } from "../errors.ts";

export const MAX_BODY_BYTES = 1_048_576;

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(";")[0]!.trim().toLowerCase();
  return type === "application/json";
}

export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const text = await readText(req, limit);
  if (text.trim() === "") throw new ApiError("validation_error", "Tijelo zahtjeva je prazno; očekuje se JSON objekt.");
  return parseStrict(text);
}

/**
 * A /trpc body, read and checked like a REST body (1 MB, JSON, no repeated keys) and returned as
 * text for tRPC's adapter to take from `req.body`. An empty body is left to tRPC (no input).
 */
export async function readTrpcBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const text = await readText(req, limit);
  if (text.trim() !== "") parseStrict(text);
  return text;
}

async function readText(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    drain(req);
    throw tooLarge(limit);
  }
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off("data", onData);
        req.off("end", onEnd);
        drain(req);
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", reject);
    // A client that goes away mid-body never sends "end".
    req.once("close", () => {
      if (!req.complete) reject(new ApiError("validation_error", "Klijent je prekinuo slanje tijela zahtjeva."));
    });
  });
  return raw.toString("utf8");
}

function parseStrict(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ApiError("validation_error", "Tijelo zahtjeva nije ispravan JSON.", { parser: (err as Error).message });
  }
  const duplicate = duplicateKey(text);
  if (duplicate !== null) {
    // JSON.parse keeps the last of repeated keys silently; strict input refuses the ambiguity.
    throw new ApiError("validation_error", "Neispravan zahtjev: provjerite označena polja.", [{ path: duplicate, message: "Ključ se u objektu ponavlja; svaki smije doći samo jednom." }]);
  }
  return value;
}

interface Frame {
  /** The keys seen so far in an object; null for an array. */
  keys: Set<string> | null;
  /** The current key (object) or index (array): this frame's segment of a path. */
  at: string | number;
}

/**
 * The path (e.g. "items.2.code") of the first key repeated within one object of `text`, which
 * JSON.parse accepted, or null. One pass over the text; only keys with escapes are decoded.
 */
function duplicateKey(text: string): string | null {
  const frames: Frame[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === 0x22) break;
        if (d === 0x5c) {
          escaped = true;
          j += 2;
        } else j++;
      }
      const top = frames[frames.length - 1];
      if (expectKey && top?.keys) {
        const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
        if (top.keys.has(key)) return [...frames.slice(0, -1).map((f) => String(f.at)), key].join(".");
        top.keys.add(key);
        top.at = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b) {
      frames.push({ keys: new Set(), at: "" });
      expectKey = true;
    } else if (c === 0x5b) {
      frames.push({ keys: null, at: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop();
    } else if (c === 0x2c) {
      const top = frames[frames.length - 1]!;
      if (top.keys) expectKey = true;
      else top.at = (top.at as number) + 1;
    }
  }
  return null;
}

function tooLarge(limit: number): ApiError {
  return new ApiError("payload_too_large", `Tijelo zahtjeva je veće od ${limit / 1_048_576} MB.`, { limit_bytes: limit });
}

/** Keep reading (and discarding) so the client receives our response instead of a reset connection. */
function drain(req: IncomingMessage): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > 64 * MAX_BODY_BYTES) req.destroy();
  });
  req.resume();
}
