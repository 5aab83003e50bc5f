// Runs before every page and route handler: a fresh nonce and the Content Security Policy built
// around it (Next.js reads the nonce from the request's policy and puts it on every script it
// renders), Strict-Transport-Security when the portal's public URL is https, and the session check
// of the portal's pages. The headers that never change per request come from next.config.ts, for
// static files too.
import { getToken } from "next-auth/jwt";
import { NextResponse, type NextRequest } from "next/server";
import { isDevelopment, portalUrl, sessionCookieSettings } from "~/env";
import { loginPath, REQUEST_PATH_HEADER, requiresSession } from "~/lib/auth-messages";
import { contentSecurityPolicy, HSTS_VALUE, isHttps, newNonce } from "~/lib/security-headers";

/**
 * Whether the request carries a session token that still decodes and has not expired. A page
 * navigation without one (a sidebar click after the session ran out, a deep link) goes straight to
 * sign-in with the page to come back to, before any page code runs.
 */
async function hasSession(request: NextRequest): Promise<boolean> {
  const { secret, secure } = sessionCookieSettings();
  // Without a secret the portal cannot check anything here; the layout then decides.
  if (!secret) return true;
  const token = await getToken({ req: request, secret, secureCookie: secure });
  return typeof token?.uid === "string" && (typeof token.exp !== "number" || token.exp * 1000 > Date.now());
}

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const nonce = newNonce();
  const https = isHttps(portalUrl());
  const csp = contentSecurityPolicy({ nonce, development: isDevelopment(), https });
  const path = request.nextUrl.pathname + request.nextUrl.search;
  let response: NextResponse;
  if (requiresSession(request.nextUrl.pathname) && !(await hasSession(request))) {
    response = NextResponse.redirect(new URL(loginPath(path), request.url), 307);
  } else {
    const forwarded = new Headers(request.headers);
    forwarded.set("Content-Security-Policy", csp);
    forwarded.set("x-nonce", nonce);
    forwarded.set(REQUEST_PATH_HEADER, path);
    response = NextResponse.next({ request: { headers: forwarded } });
  }
  response.headers.set("Content-Security-Policy", csp);
  if (https) response.headers.set("Strict-Transport-Security", HSTS_VALUE);
  return response;
}

export const config = {
  // Static build output needs no policy of its own (next.config.ts still sends it the fixed headers).
  matcher: ["/((?!_next/static|_next/image).*)"],
};
