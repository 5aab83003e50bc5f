// Croatian names of what the request log stores in English-free form: the route of a request the
// API could not match ("GET unmatched") and the rate-limit windows ("minute", "endpoint:kpd").
// Used by the dashboard, its filters, the CSV export and the operator's view alike.

/** "GET unmatched" → "GET — nepoznata putanja"; every other endpoint is a route template, shown as it is. */
export function endpointLabel(endpoint: string): string {
  const m = /^(\S+) unmatched$/.exec(endpoint);
  if (!m) return endpoint;
  return m[1] === "trpc" ? "tRPC — nepoznata procedura" : `${m[1]} — nepoznata putanja`;
}

const WINDOW_LABELS: Record<string, string> = {
  burst: "u sekundi (burst)",
  minute: "u minuti",
  day: "dnevna kvota (UTC dan)",
  "status:burst": "besplatni pozivi, u sekundi",
  "status:minute": "besplatni pozivi, u minuti",
  "status:day": "besplatni pozivi, dnevno",
  "ip:burst": "bez ključa, po adresi, u sekundi",
  "ip:minute": "bez ključa, po adresi, u minuti",
  "ip:day": "bez ključa, po adresi, dnevno",
};

/** The rate-limit window of a decision, in Croatian. */
export function windowLabel(window: string): string {
  if (WINDOW_LABELS[window]) return WINDOW_LABELS[window];
  if (window.startsWith("endpoint:")) return `ograničenje endpointa (${window.slice(9)}), u minuti`;
  return window;
}

/** Why the webhook worker disabled an endpoint; reasons stored before they were Croatian are translated. */
export function disabledReasonText(reason: string): string {
  return reason === "The endpoint answered 410 Gone" ? "Adresa je odgovorila 410 Gone, pa je isključena." : reason;
}
