// Sign-in messages the server may show; anything else from next-auth is replaced by a generic one.
export const INVALID_CREDENTIALS = "Neispravan e-mail ili lozinka.";
export const SIGN_IN_UNAVAILABLE = "Prijava trenutačno nije moguća. Pokušajte ponovno za nekoliko trenutaka.";
export const TOO_MANY_ATTEMPTS_PREFIX = "Previše pokušaja";

export function displayableSignInError(error: string | null | undefined): string {
  if (!error || error === "CredentialsSignin") return INVALID_CREDENTIALS;
  if (error === INVALID_CREDENTIALS || error === SIGN_IN_UNAVAILABLE || error.startsWith(TOO_MANY_ATTEMPTS_PREFIX)) return error;
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
