// A card of a page with its heading row: the title (h2, naming the section) and a hint beside it.
import type { ReactNode } from "react";

export function CardSection({ id, title, hint, children }: { id: string; title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className="card flush section" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        {hint ? <span className="hint">{hint}</span> : null}
      </div>
      {children}
    </section>
  );
}
