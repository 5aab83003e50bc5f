// Browser-side tRPC client for mutations and paging; pages get their first data from server components.
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "~/server/trpc/root";

export const trpc = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: "/api/trpc" })],
});

/** A sentence for the user from any failure of a procedure call. */
export function errorMessage(err: unknown): string {
  if (err instanceof TRPCClientError) {
    if (err.data?.code === "UNAUTHORIZED") return "Sesija je istekla. Prijavite se ponovno.";
    if (err.data?.code === "INTERNAL_SERVER_ERROR") return "Došlo je do pogreške na poslužitelju. Pokušajte ponovno.";
    if (err.message && !err.message.startsWith("[")) return err.message;
  }
  if (err instanceof TypeError) return "Poslužitelj nije dostupan. Provjerite vezu i pokušajte ponovno.";
  return "Nešto nije u redu. Pokušajte ponovno.";
}
