// What the portal's security headers must be, and a watcher that records every portal document a
// browser context loads (status, headers, the nonce of its scripts) and every Content Security
// Policy violation the browser reports (securitypolicyviolation events and console messages).
import { expect, type BrowserContext, type Response } from "@playwright/test";

type PortalDocument = {
  url: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  /** <script> tags of the HTML whose nonce is not the response's CSP nonce (empty when all match). */
  scriptsWithoutNonce: string[];
  scripts: number;
};

/** The nonce a Content-Security-Policy grants scripts, or null. */
export function cspNonce(csp: string | undefined | null): string | null {
  const scriptSrc = (csp ?? "").split(";").find((d) => d.trim().startsWith("script-src "));
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(scriptSrc ?? "")?.[1] ?? null;
}

function directive(csp: string, name: string): string[] | undefined {
  const found = csp
    .split(";")
    .map((d) => d.trim().split(/\s+/))
    .find((parts) => parts[0] === name);
  return found?.slice(1);
}

/**
 * The headers every portal answer carries (pages, redirects, errors, route handlers). `page`
 * additionally requires the strict script policy with a nonce.
 */
export function expectPortalHeaders(headers: Record<string, string>, what: string, opts: { page: boolean; https?: boolean } = { page: true }): void {
  const h = (name: string) => headers[name.toLowerCase()];
  expect(h("x-content-type-options"), `${what}: X-Content-Type-Options`).toBe("nosniff");
  expect(h("x-frame-options"), `${what}: X-Frame-Options`).toBe("DENY");
  expect(h("referrer-policy"), `${what}: Referrer-Policy`).toBe("strict-origin-when-cross-origin");
  const permissions = h("permissions-policy") ?? "";
  for (const feature of ["camera=()", "microphone=()", "geolocation=()", "payment=()"]) {
    expect(permissions, `${what}: Permissions-Policy`).toContain(feature);
  }
  if (opts.https) expect(h("strict-transport-security"), `${what}: Strict-Transport-Security`).toMatch(/^max-age=\d{8,}/);
  else expect(h("strict-transport-security"), `${what}: no Strict-Transport-Security over http`).toBeUndefined();
  if (!opts.page) return;
  const csp = h("content-security-policy") ?? "";
  expect(csp, `${what}: Content-Security-Policy`).not.toBe("");
  expect(h("content-security-policy-report-only"), `${what}: the policy is enforced`).toBeUndefined();
  expect(directive(csp, "default-src"), `${what}: default-src`).toEqual(["'self'"]);
  expect(directive(csp, "frame-ancestors"), `${what}: frame-ancestors`).toEqual(["'none'"]);
  expect(directive(csp, "object-src"), `${what}: object-src`).toEqual(["'none'"]);
  expect(directive(csp, "base-uri"), `${what}: base-uri`).toEqual(["'none'"]);
  expect(directive(csp, "form-action"), `${what}: form-action`).toEqual(["'self'"]);
  const scriptSrc = directive(csp, "script-src") ?? [];
  const nonce = cspNonce(csp);
  expect(nonce, `${what}: script-src has a nonce`).toMatch(/^[A-Za-z0-9+/=_-]{22,}$/);
  // A production build: no inline script without the nonce, no eval.
  expect(scriptSrc, `${what}: script-src`).toEqual(["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"]);
  expect(csp, `${what}: nothing unsafe but inline style attributes`).not.toMatch(/'unsafe-(eval|hashes)'/);
  expect(directive(csp, "style-src"), `${what}: style-src`).toEqual(["'self'", `'nonce-${nonce}'`]);
  if (opts.https) expect(directive(csp, "upgrade-insecure-requests"), `${what}: upgrade-insecure-requests`).toEqual([]);
  else expect(directive(csp, "upgrade-insecure-requests"), `${what}: no upgrade-insecure-requests over http`).toBeUndefined();
}

export type SecurityWatch = {
  documents: PortalDocument[];
  violations: string[];
  /** Records this context's documents and violations too. */
  watch(context: BrowserContext): Promise<void>;
  /**
   * Every recorded document carried the headers and nonced scripts, and the browser reported no
   * violation; `visited` lists paths that must be among the recorded documents.
   */
  expectClean(visited?: string[]): Promise<void>;
};

const VIOLATION_BINDING = "__fiskalCspViolation";

export function securityWatch(portalUrl: string): SecurityWatch {
  const documents: PortalDocument[] = [];
  const violations: string[] = [];
  const pending: Promise<void>[] = [];
  const watched = new Set<BrowserContext>();

  async function record(response: Response): Promise<void> {
    const request = response.request();
    if (!request.isNavigationRequest() || request.resourceType() !== "document" || !response.url().startsWith(portalUrl)) return;
    const headers = await response.allHeaders();
    const doc: PortalDocument = { url: response.url(), path: new URL(response.url()).pathname, status: response.status(), headers, scriptsWithoutNonce: [], scripts: 0 };
    documents.push(doc);
    if (!(headers["content-type"] ?? "").startsWith("text/html") || response.status() >= 300 && response.status() < 400) return;
    let html: string;
    try {
      html = await response.text();
    } catch {
      return; // the page navigated on before its body was read; its headers were recorded
    }
    const nonce = cspNonce(headers["content-security-policy"]);
    const tags = html.match(/<script\b[^>]*>/g) ?? [];
    doc.scripts = tags.length;
    doc.scriptsWithoutNonce = tags.filter((tag) => !nonce || !tag.includes(` nonce="${nonce}"`));
  }

  return {
    documents,
    violations,
    async watch(context) {
      if (watched.has(context)) return;
      watched.add(context);
      await context.exposeBinding(VIOLATION_BINDING, (_source, report: string) => void violations.push(report));
      await context.addInitScript((binding: string) => {
        document.addEventListener(
          "securitypolicyviolation",
          (e) => {
            const report = `${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"} at ${e.sourceFile}:${e.lineNumber} on ${location.pathname}`;
            void (window as unknown as Record<string, (r: string) => Promise<void>>)[binding]?.(report);
          },
          true,
        );
      }, VIOLATION_BINDING);
      context.on("console", (msg) => {
        if (/content[ -]security[ -]policy/i.test(msg.text())) violations.push(`console ${msg.type()}: ${msg.text()}`);
      });
      context.on("response", (response) => void pending.push(record(response).catch((err: unknown) => void violations.push(`unreadable response ${response.url()}: ${String(err)}`))));
    },
    async expectClean(visited = []) {
      await Promise.all(pending);
      const paths = new Set(documents.map((d) => d.path));
      for (const path of visited) expect(paths.has(path), `a document of ${path} was recorded (got ${[...paths].join(", ")})`).toBe(true);
      const nonces = new Set<string>();
      for (const doc of documents) {
        const what = `${doc.status} ${doc.path}`;
        expectPortalHeaders(doc.headers, what, { page: true });
        const nonce = cspNonce(doc.headers["content-security-policy"])!;
        expect(nonces.has(nonce), `${what}: a nonce of its own`).toBe(false);
        nonces.add(nonce);
        expect(doc.scriptsWithoutNonce, `${what}: every <script> carries the nonce`).toEqual([]);
      }
      expect(violations, "Content Security Policy violations").toEqual([]);
    },
  };
}
