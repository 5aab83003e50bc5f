// Runs before every page and route handler: a fresh nonce and the Content Security Policy built
// around it (Next.js reads the nonce from the request's policy and puts it on every script it
// renders), and Strict-Transport-Security when the portal's public URL is https. The headers that
// never change per request come from next.config.ts, for static files too.
import { NextResponse, type NextRequest } from "next/server";
import { isDevelopment, portalUrl } from "~/env";
import { contentSecurityPolicy, HSTS_VALUE, isHttps, newNonce } from "~/lib/security-headers";

export function proxy(request: NextRequest): NextResponse {
  const nonce = newNonce();
  const https = isHttps(portalUrl());
  const csp = contentSecurityPolicy({ nonce, development: isDevelopment(), https });
  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", csp);
  forwarded.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set("Content-Security-Policy", csp);
  if (https) response.headers.set("Strict-Transport-Security", HSTS_VALUE);
  return response;
}

export const config = {
  // Static build output needs no policy of its own (next.config.ts still sends it the fixed headers).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
