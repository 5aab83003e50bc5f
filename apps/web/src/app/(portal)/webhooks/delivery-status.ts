// How a delivery's state reads in the log. A delivery whose attempts failed and that waits for its
// next retry is a failure so far, not "in progress"; one that has not been tried yet is waiting.
import type { Delivery } from "./types";

export type DeliveryStatus = { label: string; cls: string; detail: "next" | null };

export function deliveryStatus(d: Pick<Delivery, "status" | "attemptCount" | "attempts">): DeliveryStatus {
  if (d.status === "succeeded") return { label: "Isporučeno", cls: "badge ok", detail: null };
  if (d.status === "failed") return { label: "Neuspjelo", cls: "badge danger", detail: null };
  const last = d.attempts[d.attempts.length - 1];
  const lastFailed = d.attemptCount > 0 && (!last || last.statusCode === null || last.statusCode < 200 || last.statusCode >= 300);
  return lastFailed
    ? { label: "Neuspjelo, ponovit će se", cls: "badge danger", detail: "next" }
    : { label: "Čeka slanje", cls: "badge warn", detail: "next" };
}
