// KPD responses depend only on the dataset version and the request URL, so the ETag is computed
// before the procedure runs and a matching If-None-Match is answered with 304 straight away.
import { createHash } from "node:crypto";

export function kpdEtag(dataVersion: string, url: string): string {
  return `"kpd-${dataVersion.slice(0, 12)}-${createHash("sha1").update(url).digest("base64url").slice(0, 16)}"`;
}
