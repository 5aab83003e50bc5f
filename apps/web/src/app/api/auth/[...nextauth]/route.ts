// next-auth endpoints (sign-in, sign-out, session, CSRF).
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "~/server/auth";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so that `next build` does not need the runtime secrets.
function handler(req: NextRequest, ctx: RouteContext) {
  return NextAuth(req, ctx, authOptions());
}

export { handler as GET, handler as POST };
