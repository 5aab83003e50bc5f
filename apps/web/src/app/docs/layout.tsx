import type { ReactNode } from "react";
import { DocsNav } from "~/components/DocsNav";
import { PublicHeader } from "~/components/PublicHeader";

export const dynamic = "force-dynamic";

export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PublicHeader />
      <div className="docs">
        <DocsNav />
        <main className="prose" id="sadrzaj">
          {children}
        </main>
      </div>
      <footer className="footer">Fiskal · dokumentacija</footer>
    </>
  );
}
