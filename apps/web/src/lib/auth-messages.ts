// Sign-in messages the server may show; anything else from next-auth is replaced by a generic one.
export const INVALID_CREDENTIALS = "Neispravan e-mail ili lozinka.";
export const SIGN_IN_UNAVAILABLE = "Prijava trenutačno nije moguća. Pokušajte ponovno za nekoliko trenutaka.";
const TOO_MANY_ATTEMPTS_PREFIX = "Previše pokušaja";
/** The password was right; the account signs in with a second factor too (the form then asks for it). */
export const TOTP_REQUIRED = "Unesite kôd iz aplikacije za autentifikaciju ili jedan od kodova za oporavak.";
export const TOTP_INVALID = "Kôd nije ispravan ili je već iskorišten.";

export function displayableSignInError(error: string | null | undefined): string {
  if (!error || error === "CredentialsSignin") return INVALID_CREDENTIALS;
  if (error === INVALID_CREDENTIALS || error === SIGN_IN_UNAVAILABLE || error === TOTP_REQUIRED || error === TOTP_INVALID || error.startsWith(TOO_MANY_ATTEMPTS_PREFIX)) return error;
  return SIGN_IN_UNAVAILABLE;
}

/** A same-origin path to continue to after sign-in; anything else (other hosts, `/\\host`, odd characters) → /dashboard. */
export function safeCallbackPath(raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(raw)) return "/dashboard";
  const base = "http://portal.invalid";
  try {
    const url = new URL(raw, base);
    if (url.origin !== base) return "/dashboard";
    return url.pathname + url.search + url.hash;
  } catch {
    return "/dashboard";
  }
}

/** The portal's signed-in areas; everything else (landing, sign-in, docs, API routes) is public. */
const SIGNED_IN_AREAS = ["/dashboard", "/keys", "/plan", "/webhooks", "/audit", "/certificates", "/admin", "/account", "/team"];

export function requiresSession(pathname: string): boolean {
  return SIGNED_IN_AREAS.some((area) => pathname === area || pathname.startsWith(`${area}/`));
}

/** Sign-in that returns to `path` afterwards (path and query of a portal page). */
export function loginPath(path: string): string {
  const back = safeCallbackPath(path);
  return back === "/dashboard" && path !== "/dashboard" ? "/login" : `/login?callbackUrl=${encodeURIComponent(back)}`;
}

/** Request header the proxy sets to the path and query asked for, so a redirect to sign-in can come back. */
export const REQUEST_PATH_HEADER = "x-fiskal-path";

/** Where a sign-in without a page to return to lands: operators on their admin area. */
export function landingPath(role: string | undefined): string {
  return role === "OPERATOR" ? "/admin" : "/dashboard";
}
