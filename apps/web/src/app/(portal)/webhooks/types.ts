// The webhooks page's data, typed from the portal router's outputs.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "~/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>["webhooks"];

export type Endpoint = Outputs["endpoints"][number];
export type EventsPage = Outputs["events"];
export type EventRow = EventsPage["items"][number];
export type Delivery = EventRow["deliveries"][number];
