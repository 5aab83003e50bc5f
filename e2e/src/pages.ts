// Every page of the portal, in one list: the quality gates (accessibility, 390 px without horizontal
// scroll, no English left in the interface, screenshots) visit exactly these. A new page is added here.
export type Role = "signedOut" | "customer" | "operator";

export type PortalPage = {
  /** Path, or a function of the data the gate's setup created (ids known only at run time). */
  path: string | ((data: PageData) => string);
  /** File name of its screenshots in e2e/artifacts/ (without the width). */
  name: string;
  role: Role;
};

/** What the gate's setup created, for pages whose path needs an id. */
export type PageData = { customerAccountId: string };

export const PAGES: PortalPage[] = [
  // signed out
  { path: "/", name: "landing", role: "signedOut" },
  { path: "/login", name: "login", role: "signedOut" },
  { path: "/signup", name: "signup", role: "signedOut" },
  { path: "/docs/rate-limits", name: "docs-rate-limits", role: "signedOut" },
  { path: "/docs/errors", name: "docs-errors", role: "signedOut" },
  { path: "/docs/api", name: "docs-api", role: "signedOut" },
  { path: "/docs/fiscalization", name: "docs-fiscalization", role: "signedOut" },
  { path: "/stranica-koja-ne-postoji", name: "not-found", role: "signedOut" },
  { path: "/invite/poziv-koji-ne-postoji-0000000000", name: "invite-closed", role: "signedOut" },
  // a customer with data: keys, requests (some refused), a webhook with a delivery, a pending upgrade
  { path: "/dashboard", name: "dashboard", role: "customer" },
  { path: "/keys", name: "keys", role: "customer" },
  { path: "/plan", name: "plan", role: "customer" },
  { path: "/webhooks", name: "webhooks", role: "customer" },
  { path: "/audit", name: "audit", role: "customer" },
  { path: "/documents", name: "documents", role: "customer" },
  { path: "/certificates", name: "certificates", role: "customer" },
  { path: "/team", name: "team", role: "customer" },
  { path: "/account/security", name: "account-security", role: "customer" },
  { path: "/account/sessions", name: "account-sessions", role: "customer" },
  // the operator
  { path: "/admin", name: "admin", role: "operator" },
  { path: "/admin/audit", name: "admin-audit", role: "operator" },
  { path: (d) => `/admin/accounts/${d.customerAccountId}`, name: "admin-account", role: "operator" },
];

export function pathOf(page: PortalPage, data: PageData): string {
  return typeof page.path === "function" ? page.path(data) : page.path;
}

/**
 * Words of the interface that are not Croatian but belong there: protocol and code terms, product
 * and plan names. Only words from ENGLISH_WORDS are looked at, so this list stays short.
 */
const ALLOWED_TERMS = new Set(["webhooks", "webhook", "api", "sandbox", "starter", "business", "enterprise", "test", "live", "id"]);

/** Common English words; one of them in a page's visible text (outside code) is a leftover. */
const ENGLISH_WORDS = new Set(
  (
    "the and is are not of for with from this that these been by your you will be has have was were an it its at which when where " +
    "request requests response responses error errors invalid expected received allowed successful success modified loading failed " +
    "pending delivered retry send sent event events address loopback private key keys input number required optional message " +
    "settings dashboard sign login logout password submit cancel save delete copy copied close next previous page show " +
    "hide less all none yes name total usage upgrade approve reject customer account accounts created updated " +
    "expires expired never unknown must should can cannot only into day second seconds hour hours week month remaining " +
    "limits window windows refused admitted rotate rotation revoke revoked new old back home search export download " +
    "too many exceeded found could reach database available unavailable try again later here click"
  ).split(" "),
);

/**
 * English words in `text` with the words around them (each word once), ignoring allowed terms.
 * Compound tokens (Idempotency-Key, rate_limit.warning, /v1/kpd/search, X-RateLimit-Reset) are
 * names of things, not prose.
 */
export function englishWords(text: string): string[] {
  const found = new Map<string, string>();
  const tokens = text.split(/[^\p{L}\p{N}_./:-]+/u);
  tokens.forEach((raw, i) => {
    const token = raw.replace(/^[.:-]+|[.:-]+$/g, "");
    if (/[_./:-]/.test(token)) return;
    const w = token.toLowerCase();
    if (w && ENGLISH_WORDS.has(w) && !ALLOWED_TERMS.has(w) && !found.has(w)) found.set(w, `${w}: "…${tokens.slice(Math.max(0, i - 4), i + 5).join(" ")}…"`);
  });
  return [...found.values()];
}
