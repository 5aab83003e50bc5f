import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Fiskal — API za fiskalizaciju", template: "%s · Fiskal" },
  description: "Fiskalizacija računa, e-računi, KPD šifre i provjera OIB-a kroz jedan API s jasnim ograničenjima.",
};

export const viewport: Viewport = { themeColor: "#2447d6" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="hr">
      <body>
        <a className="skip-link" href="#sadrzaj">
          Preskoči na sadržaj
        </a>
        {children}
      </body>
    </html>
  );
}
