// Portal procedures over tRPC; every procedure but sign-up needs a session.
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/trpc/root";
import { createContext } from "~/server/trpc/trpc";

/**
 * Only JSON bodies reach a procedure. A cross-site HTML form can post text/plain, urlencoded or
 * multipart bodies with the user's cookies but never application/json without a CORS preflight,
 * so refusing everything else keeps forged form posts away from every mutation.
 */
function isJsonContentType(header: string | null): boolean {
  return header?.split(";")[0]?.trim().toLowerCase() === "application/json";
}

function unsupportedMediaType(): Response {
  const body = {
    error: {
      message: "Zahtjev mora imati Content-Type: application/json.",
      code: -32015,
      data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 },
    },
  };
  return Response.json(body, { status: 415 });
}

function handler(req: Request) {
  if (req.method === "POST" && !isJsonContentType(req.headers.get("content-type"))) return unsupportedMediaType();
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext({ headers: req.headers }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
