// tRPC setup: context, meta, error shape and the base procedures shared by REST (/v1) and /trpc.
import { initTRPC } from "@trpc/server";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Decision, EndpointGroup, Limits, PlanName } from "@fiskal/limits";
import { ApiError, describeError, docUrl } from "./errors.ts";
import type { Services } from "./services.ts";

export interface Principal {
  accountId: string;
  apiKeyId: string;
  plan: PlanName;
  limits: Limits;
  limitsVersion: number;
}

export interface Context {
  services: Services;
  req: IncomingMessage;
  res: ServerResponse;
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

/**
 * Every v1 procedure: the gate in the HTTP layer has authenticated and rate-limited the call.
 *
 * Procedures throw ApiError; here, once for every procedure, it becomes the TRPCError of its code,
 * which sets the status on /trpc, while the error formatter and the REST envelope read the code,
 * message and details from the ApiError itself. Headers an error carries (e.g. Retry-After) are
 * set on the response on both surfaces. (One middleware: each layer costs on every call.)
 */
export const apiKeyProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (ctx.gateError) throw ctx.gateError.toTRPC();
  if (!ctx.principal) throw new ApiError("unauthorized", "Nedostaje API ključ.").toTRPC();
  const result = await next({ ctx: { principal: ctx.principal } });
  if (result.ok || !(result.error.cause instanceof ApiError)) return result;
  const cause = result.error.cause;
  if (cause.headers && !ctx.res.headersSent) for (const [name, value] of Object.entries(cause.headers)) ctx.res.setHeader(name, value);
  return result.error.code === cause.trpcCode ? result : { ...result, error: cause.toTRPC() };
});
