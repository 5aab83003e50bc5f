// Wordmark with a small checkerboard mark.
import Link from "next/link";

function LogoMark({ size = 26 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 26 26" aria-hidden="true">
      <rect width="26" height="26" rx="6" fill="#2447d6" />
      <rect x="5" y="5" width="8" height="8" fill="#fff" />
      <rect x="13" y="13" width="8" height="8" fill="#fff" />
      <rect x="13" y="5" width="8" height="8" fill="#e4503f" />
      <rect x="5" y="13" width="8" height="8" fill="#e4503f" />
    </svg>
  );
}

export function Logo({ href = "/", tagline }: { href?: string; tagline?: string }) {
  return (
    <Link href={href} className="brand">
      <LogoMark />
      <span>Fiskal</span>
      {tagline ? <small>{tagline}</small> : null}
      {/* the name read out starts with the visible text, then says where the link leads */}
      <span className="sr-only"> — početna stranica</span>
    </Link>
  );
}
