// The foot of a list paged by links: "older" while there is more, else a line saying that is all.
import Link from "next/link";

export function MoreLink({ href, label, testId, end }: { href: string | null; label: string; testId: string; end: string | null }) {
  return (
    <div style={{ padding: "12px 20px 16px" }}>
      {href ? (
        <Link className="btn secondary small" href={href} data-testid={testId}>
          {label}
        </Link>
      ) : end ? (
        <span style={{ color: "var(--muted)", fontSize: "0.86rem" }}>{end}</span>
      ) : null}
    </div>
  );
}
