// tRPC setup: context, meta, error shape and the base procedures shared by REST (/v1) and /trpc.
import { initTRPC, TRPCError, type AnyProcedure } from "@trpc/server";
import type { IncomingMessage } from "node:http";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Decision, EndpointGroup, Limits } from "@fiskal/limits";
import { ApiError, describeError, docUrl } from "./errors.ts";
import type { Principal } from "./principal.ts";
import type { Services } from "./services.ts";

export type { Principal };

interface ResponseHeaders {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

export interface Context {
  services: Services;
  req: IncomingMessage;
  /** Where a procedure sets headers of its answer (e.g. Idempotent-Replayed): the response, or the block it is written from. */
  res: ResponseHeaders;
  requestId: string;
  /** Set by the HTTP gate when the request carried a valid key and was admitted. */
  principal: Principal | null;
  /** Set by the HTTP gate when it refused the request (401 or 429). */
  gateError: ApiError | null;
  /** The gate's rate-limit decision (for free status calls it carries the account's windows as `observed`). */
  decision: Decision | null;
}

/**
 * How the HTTP layer treats a procedure: read from `.meta()` through the route table
 * (http/routes.ts) by the gate, the REST dispatcher and the OpenAPI document. Every field is
 * optional and its absence is the ordinary case: the plan's windows only, no ETag, no
 * Idempotency-Key, quota counted.
 */
export interface RoutePolicy {
  /** The dedicated endpoint limit the procedure falls under (shared by every procedure of the group). */
  group?: EndpointGroup;
  /**
   * Successful answers carry this ETag with `Cache-Control: private, max-age=3600`, and a matching
   * If-None-Match is answered 304. Computed from the request alone (the answer must depend on nothing else).
   */
  etag?: (services: Services, url: string) => string;
  /** Accepts an Idempotency-Key (documented, with Idempotent-Replayed and the 409s of a reused key). */
  idempotent?: boolean;
  /**
   * A free status call: it consumes none of the account's quota and is counted against this
   * allowance instead (windows "status:*" of the account), while the account's windows are read.
   */
  statusLimits?: Limits;
  /**
   * A file download: on REST, after the procedure answered (its JSON describes the file, and is what
   * /trpc returns), the body is this stream with its own Content-Type instead of that JSON.
   */
  download?: (services: Services, accountId: string, answer: unknown) => Download;
}

/** What a download route streams on REST. */
export interface Download {
  contentType: string;
  filename: string;
  body: AsyncIterable<Buffer>;
}

export type Meta = OpenApiMeta & RoutePolicy;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error, ctx }) {
      const described = describeError(error);
      const portalUrl = ctx?.services.portalUrl ?? "";
      return {
        ...shape,
        message: described.message,
        data: {
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          code: described.code,
          message: described.message,
          doc_url: docUrl(portalUrl, described.code),
          ...(described.details !== undefined ? { details: described.details } : {}),
          request_id: ctx?.requestId,
        },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** The gate's verdict as a procedure sees it: its refusal, or the admitted caller. */
function admitted(ctx: Context): Principal {
  if (ctx.gateError) throw ctx.gateError.toTRPC();
  if (!ctx.principal) throw new ApiError("unauthorized", "Nedostaje API ključ.").toTRPC();
  return ctx.principal;
}

/**
 * Every v1 procedure: the gate in the HTTP layer has authenticated and rate-limited the call.
 *
 * Procedures throw ApiError; here, once for every procedure, it becomes the TRPCError of its code,
 * which sets the status on /trpc, while the error formatter and the REST envelope read the code,
 * message and details from the ApiError itself. Headers an error carries (e.g. Retry-After) are
 * set on the response on both surfaces. (One middleware: each layer costs on every call.)
 */
export const apiKeyProcedure = t.procedure.use(async ({ ctx, next }) => {
  const result = await next({ ctx: { principal: admitted(ctx) } });
  if (result.ok || !(result.error.cause instanceof ApiError)) return result;
  const cause = result.error.cause;
  if (cause.headers && !ctx.res.headersSent) for (const [name, value] of Object.entries(cause.headers)) ctx.res.setHeader(name, value);
  return result.error.code === cause.trpcCode ? result : { ...result, error: cause.toTRPC() };
});

/**
 * A procedure called without tRPC's caller: resolves to its validated output, rejects with the
 * ApiError a procedure threw (as it is, headers included) or a TRPCError of the same code and cause
 * the caller would have thrown (BAD_REQUEST for input the schema refused, INTERNAL_SERVER_ERROR for
 * anything else).
 */
export type DirectCall = (ctx: Context, rawInput: unknown) => Promise<unknown>;

/** What `.input()`, `.output()` and `.query()`/`.mutation()` leave in a procedure's `_def` (@trpc/server internals, UPGRADING.md). */
interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  meta?: Meta;
  inputs: unknown[];
  output?: unknown;
  middlewares: { _type?: string }[];
  resolver?: (opts: { ctx: Context; input: unknown; type: string; path: string; meta: Meta | undefined; signal: undefined; getRawInput: () => Promise<unknown> }) => unknown;
}

interface Schema {
  parse(value: unknown): unknown;
  parseAsync(value: unknown): Promise<unknown>;
}

/**
 * A schema's parse, chosen once: synchronous, unless the schema turns out to need async refinements
 * (zod throws an error without issues then), from which on it parses asynchronously.
 */
function parserOf(schema: unknown): (value: unknown) => unknown {
  const s = schema as Schema;
  if (typeof s?.parse !== "function" || typeof s.parseAsync !== "function") throw new Error("a procedure's schema is not a zod schema");
  let async = false;
  return (value) => {
    if (!async) {
      try {
        return s.parse(value);
      } catch (err) {
        if (Array.isArray((err as { issues?: unknown })?.issues)) throw err;
        async = true;
      }
    }
    return s.parseAsync(value);
  };
}

/**
 * The REST path's call of a procedure built on `apiKeyProcedure` with one `.input()` and an
 * optional `.output()`: the steps tRPC's caller runs for it, in its order and with its errors —
 * the gate's verdict, the input schema, the resolver, the output schema — without the caller's
 * middleware chain (a context and options object per layer per call). The schemas' parsers are
 * made once, here. `validateOutput` off skips the output schema (production: the resolvers'
 * return types are checked by the compiler and the schemas by the tests, which run with it on).
 *
 * null for a procedure built otherwise (its own middlewares, several inputs): the REST path calls
 * that one through a tRPC caller. The route contract test lists the routes that run directly.
 */
export function directCall(procedure: AnyProcedure, path: string, opts: { validateOutput: boolean }): DirectCall | null {
  // tRPC does not type a built procedure's middleware chain and resolver (its internals, pinned by the
  // catalog version): ProcedureDef spells out what is read here, and the route contract test fails
  // when a tRPC upgrade changes it.
  const def = procedure._def as AnyProcedure["_def"] & ProcedureDef;
  const apiErrors = apiKeyProcedure._def.middlewares[0];
  const [first, ...rest] = def.middlewares;
  const resolver = def.resolver;
  const layers = rest.slice(0, -1).map((m) => m._type);
  const expected = ["input", ...(def.output !== undefined ? ["output"] : [])];
  if (first !== apiErrors || !resolver || def.inputs.length !== 1 || layers.length !== expected.length || !expected.every((l) => layers.includes(l))) return null;
  const parseInput = parserOf(def.inputs[0]);
  const parseOutput = opts.validateOutput && def.output !== undefined ? parserOf(def.output) : null;
  const { type, meta } = def;

  return async (ctx, rawInput) => {
    admitted(ctx);
    let input: unknown;
    try {
      input = await parseInput(rawInput);
    } catch (cause) {
      throw new TRPCError({ code: "BAD_REQUEST", cause });
    }
    let data: unknown;
    try {
      data = await resolver({ ctx, input, type, path, meta, signal: undefined, getRawInput: () => Promise.resolve(rawInput) });
    } catch (err) {
      if (err instanceof ApiError || err instanceof TRPCError) throw err;
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: err });
    }
    if (!parseOutput) return data;
    try {
      return await parseOutput(data);
    } catch (cause) {
      throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "Output validation failed", cause });
    }
  };
}
