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

export type Meta = OpenApiMeta & {
  /** The dedicated endpoint limit the procedure falls under, if any. */
  group?: EndpointGroup;
  /** Read-only status calls that consume no quota (the gate peeks instead of counting). */
  free?: boolean;
};

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

/** Every v1 procedure: the gate in the HTTP layer has authenticated and rate-limited the call. */
export const apiKeyProcedure = t.procedure.use(async ({ ctx, next }) => {
  if (ctx.gateError) throw ctx.gateError.toTRPC();
  if (!ctx.principal) throw new ApiError("unauthorized", "Nedostaje API ključ.").toTRPC();
  const result = await next({ ctx: { principal: ctx.principal } });
  // Errors may carry response headers (e.g. Retry-After on upstream_unavailable) on both surfaces.
  if (!result.ok && result.error.cause instanceof ApiError && result.error.cause.headers) {
    for (const [name, value] of Object.entries(result.error.cause.headers)) ctx.res.setHeader(name, value);
  }
  return result;
});
