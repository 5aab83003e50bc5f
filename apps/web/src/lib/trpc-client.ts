// Browser-side tRPC client for mutations and paging; pages get their first data from server components.
import { createTRPCClient, httpBatchLink, TRPCClientError, type TRPCLink } from "@trpc/client";
import { observable } from "@trpc/server/observable";
import type { AppRouter } from "~/server/trpc/root";

/**
 * A call refused because the session ended (expired, or signed out in another tab) sends the user
 * to sign in again and back to this page, whichever button made the call; the caller still gets
 * the error, so the page says what happened while the browser navigates.
 */
const signInAgainLink: TRPCLink<AppRouter> = () => ({ next, op }) =>
  observable((observer) =>
    next(op).subscribe({
      next: (value) => observer.next(value),
      error: (err) => {
        if (isSessionExpired(err)) {
          const here = `${window.location.pathname}${window.location.search}`;
          window.location.assign(`/login?callbackUrl=${encodeURIComponent(here)}`);
        }
        observer.error(err);
      },
      complete: () => observer.complete(),
    }),
  );

export const trpc = createTRPCClient<AppRouter>({
  links: [signInAgainLink, httpBatchLink({ url: "/api/trpc" })],
});

/** The call failed because the session ended (expired or signed out elsewhere). */
function isSessionExpired(err: unknown): boolean {
  return err instanceof TRPCClientError && err.data?.code === "UNAUTHORIZED";
}

/** A sentence for the user from any failure of a procedure call. */
export function errorMessage(err: unknown): string {
  if (err instanceof TRPCClientError) {
    if (isSessionExpired(err)) return "Sesija je istekla. Prijavite se ponovno.";
    if (err.data?.code === "INTERNAL_SERVER_ERROR") return "Došlo je do pogreške na poslužitelju. Pokušajte ponovno.";
    if (err.message && !err.message.startsWith("[")) return err.message;
  }
  if (err instanceof TypeError) return "Poslužitelj nije dostupan. Provjerite vezu i pokušajte ponovno.";
  return "Nešto nije u redu. Pokušajte ponovno.";
}
