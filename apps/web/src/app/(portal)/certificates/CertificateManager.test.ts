// Server-rendered markup of the certificate page's client component: what it shows for each state
// of the certificate, the 30-day warning, and form fields that carry their labels.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { CertificateInfo } from "~/server/trpc/routers/certificates";

vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh() {} }) }));

const { CertificateManager } = await import("./CertificateManager");

const cert = (over: Partial<CertificateInfo> = {}): CertificateInfo => ({
  subject: "CN=FISKAL 1,L=ZAGREB,O=FIRMA D.O.O. HR69435151530,C=HR",
  issuer: "CN=Fina RDC 2015,O=Financijska agencija,C=HR",
  oib: "69435151530",
  serialNumber: "0a1b",
  fingerprint: "AB:CD",
  notBefore: "2026-01-01T00:00:00.000Z",
  notAfter: "2027-01-01T00:00:00.000Z",
  daysLeft: 200,
  state: "valid",
  test: false,
  uploadedAt: "2026-11-21T10:00:00.000Z",
  ...over,
});
const render = (initial: CertificateInfo | null, accountOib: string | null = "69435151530") =>
  renderToStaticMarkup(createElement(CertificateManager, { initial, accountOib, warningDays: 30 }));
const text = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("CertificateManager", () => {
  it("shows subject, OIB and expiry of a valid certificate, without a warning", () => {
    const html = render(cert());
    expect(html).toContain('data-testid="certificate-oib">69435151530<');
    expect(text(html)).toContain("CN=FISKAL 1,L=ZAGREB,O=FIRMA D.O.O. HR69435151530,C=HR");
    expect(text(html)).toContain("Važeći");
    expect(text(html)).toContain("(još 200 dana)");
    expect(html).not.toContain("certificate-expiring");
    expect(html).not.toContain("certificate-expired");
  });

  it("warns 30 days ahead, and says plainly when the certificate has expired", () => {
    const expiring = render(cert({ state: "expiring", daysLeft: 21 }));
    expect(expiring).toContain('data-testid="certificate-expiring"');
    expect(text(expiring)).toContain("Certifikat ističe za 21 dan");
    expect(text(render(cert({ state: "expiring", daysLeft: 3 })))).toContain("ističe za 3 dana");
    const expired = render(cert({ state: "expired", daysLeft: -2 }));
    expect(expired).toContain('data-testid="certificate-expired"');
    expect(expired).toContain('role="alert"');
    expect(text(expired)).toContain("Istekao");
  });

  it("explains the generated test certificate when there is none yet", () => {
    const html = render(null, null);
    expect(html).toContain('data-testid="certificate-none"');
    expect(text(html)).toContain("Učitavanje FINA certifikata");
  });

  it("labels every field of the upload form and never pre-fills the password", () => {
    const html = render(cert({ test: true }));
    for (const id of ["cert-file", "cert-password"]) {
      expect(html).toContain(`for="${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toMatch(/<input[^>]*id="cert-password"[^>]*type="password"[^>]*autoComplete="off"|<input[^>]*type="password"[^>]*autocomplete="off"/i);
    expect(html).not.toMatch(/id="cert-password"[^>]*value=/);
    expect(html).toContain('accept=".p12,.pfx,application/x-pkcs12"');
    expect(text(html)).toContain("HR69435151530");
  });
});
