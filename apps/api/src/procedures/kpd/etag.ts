// KPD responses depend only on the dataset version and the request URL, so the ETag is computed
// before the procedure runs and a matching If-None-Match is answered with 304 straight away.
import { createHash } from "node:crypto";
import type { Services } from "../../services.ts";

/** The route policy `etag` of every KPD procedure: the dataset version and the request URL. */
export function kpdEtag(services: Pick<Services, "kpd">, url: string): string {
  return `"kpd-${services.kpd.version.slice(0, 12)}-${createHash("sha1").update(url).digest("base64url").slice(0, 16)}"`;
}
