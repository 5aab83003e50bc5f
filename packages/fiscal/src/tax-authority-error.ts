// The error every tax-authority call gives (CIS and Fiscalization 2.0, the clients and the simulators),
// in its own module so that the message builders below the port (cis/operations.ts) can throw it.

/** "unavailable": worth retrying later (capacity, outage). "rejected": the request itself is wrong; `code` is the CIS error code. */
export class TaxAuthorityError extends Error {
  override readonly name = "TaxAuthorityError";
  constructor(
    message: string,
    readonly kind: "unavailable" | "rejected",
    readonly code?: string,
  ) {
    super(message);
  }
}
