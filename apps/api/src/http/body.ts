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
  const text = raw.toString("utf8");
  if (text.trim() === "") throw new ApiError("validation_error", "Tijelo zahtjeva je prazno; očekuje se JSON objekt.");
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiError("validation_error", "Tijelo zahtjeva nije ispravan JSON.", { parser: (err as Error).message });
  }
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
