// Server components call the same procedures as the browser, in-process, with the request's session.
// A procedure that finds no session (it ran out between the proxy's check and the page) sends the
// user to sign-in with the page to come back to, instead of the page's error boundary.
import { headers } from "next/headers";
import { forbidden, redirect } from "next/navigation";
import { cache } from "react";
import { loginPath, REQUEST_PATH_HEADER } from "~/lib/auth-messages";
import { createCaller } from "~/server/trpc/root";
import { createContext } from "~/server/trpc/trpc";

export const serverApi = cache(async () => {
  const h = new Headers(await headers());
  const back = loginPath(h.get(REQUEST_PATH_HEADER) ?? "/dashboard");
  return createCaller(await createContext({ headers: h }), {
    onError: ({ error }) => {
      if (error.code === "UNAUTHORIZED") redirect(back);
      // A team role without the right (docs/portal.md, "Uloge"): the page answers 403 with a way back.
      if (error.code === "FORBIDDEN") forbidden();
    },
  });
});
