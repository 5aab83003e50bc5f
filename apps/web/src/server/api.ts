// Server components call the same procedures as the browser, in-process, with the request's session.
import { headers } from "next/headers";
import { cache } from "react";
import { createCaller } from "~/server/trpc/root";
import { createContext } from "~/server/trpc/trpc";

export const serverApi = cache(async () => {
  const h = new Headers(await headers());
  return createCaller(await createContext({ headers: h }));
});
