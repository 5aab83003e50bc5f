// The claim a fiscalization pass takes on a row before it calls the tax authority, the same on the
// e-invoices it sent (einvoice-fiscalization.ts) and the ones it received (received-einvoices.ts):
// one pass or request at a time records a row, and a claim whose lease ended is taken again.
import { CLAIM_LEASE_MS } from "./records/resubmit.ts";

/** Rows whose fiscalization has not started, or whose last claim's lease has ended. */
export function fiscalizationClaimable(now: Date) {
  return { OR: [{ fiscalizationStatus: null }, { fiscalizationStatus: "pending", fiscalizationNextAttemptAt: { lte: now } }] };
}

/** The claim of one attempt: pending under its own request id, one more attempt, held for the lease. */
export function fiscalizationClaim(requestId: string, now: Date) {
  return { fiscalizationStatus: "pending", fiscalizationRequestId: requestId, fiscalizationAttempts: { increment: 1 }, fiscalizationNextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) };
}
