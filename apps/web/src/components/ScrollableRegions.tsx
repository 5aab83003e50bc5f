"use client";
// Whatever scrolls sideways on its own (a wide table in .table-wrap, a code block) can be scrolled
// with the keyboard: while it overflows it is focusable, and a table container is a region named
// after its table's section. Runs on every page, also after client navigation and on resize.
import { usePathname } from "next/navigation";
import { useEffect } from "react";

const SELECTOR = ".table-wrap, pre";

function regionName(el: HTMLElement): string {
  const section = el.closest("section, article, figure");
  const heading = section?.querySelector("h1, h2, h3, caption, figcaption")?.textContent?.trim();
  return heading ? `Tablica: ${heading}` : "Tablica";
}

function mark(): void {
  for (const el of document.querySelectorAll<HTMLElement>(SELECTOR)) {
    const overflows = el.scrollWidth > el.clientWidth + 1;
    if (overflows && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
      el.dataset.scrollFocus = "1";
    } else if (!overflows && el.dataset.scrollFocus === "1") {
      el.removeAttribute("tabindex");
      delete el.dataset.scrollFocus;
    }
    if (el.classList.contains("table-wrap") && !el.hasAttribute("aria-label")) {
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", regionName(el));
    }
  }
}

export function ScrollableRegions() {
  const pathname = usePathname();
  useEffect(() => {
    mark();
    const observer = new MutationObserver(() => mark());
    observer.observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", mark);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", mark);
    };
  }, [pathname]);
  return null;
}
