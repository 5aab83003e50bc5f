import { EVENT_TYPES } from "@fiskal/webhooks";
import { expect, it } from "vitest";
import { EVENT_CHOICES } from "./event-types.ts";

it("the portal offers exactly the event types of @fiskal/webhooks", () => {
  expect([...EVENT_CHOICES].sort()).toEqual([...EVENT_TYPES].sort());
});
