import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { FormValidation } from "~/components/FormValidation";
import { ScrollableRegions } from "~/components/ScrollableRegions";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Fiskal — API za fiskalizaciju", template: "%s · Fiskal" },
  description: "Fiskalizacija računa, e-računi, KPD šifre i provjera OIB-a kroz jedan API s jasnim ograničenjima.",
};

export const viewport: Viewport = { themeColor: "#2447d6" };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, error pages included: its scripts carry that response's
  // CSP nonce (src/proxy.ts). A page prerendered at build time would have scripts without one.
  await connection();
  return (
    <html lang="hr">
      <body>
        <a className="skip-link" href="#sadrzaj">
          Preskoči na sadržaj
        </a>
        {children}
        <ScrollableRegions />
        <FormValidation />
      </body>
    </html>
  );
}
