// Types of what the portal's procedures return, for components that receive that data as props.
import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/root";

export type PortalOutputs = inferRouterOutputs<AppRouter>;
export type PortalInputs = inferRouterInputs<AppRouter>;
