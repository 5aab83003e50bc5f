// The caller a valid API key identifies: what the authenticator (auth.ts) produces, the HTTP gate admits
// and every procedure reads. Its own module so that the modules below the tRPC setup need not import it.
import type { Limits, PlanName } from "@fiskal/limits";

export interface Principal {
  accountId: string;
  apiKeyId: string;
  plan: PlanName;
  limits: Limits;
  limitsVersion: number;
}
