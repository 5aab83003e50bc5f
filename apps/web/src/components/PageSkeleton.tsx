// The loading state of the customer pages (their loading.tsx files). The admin page has none on
// purpose: a loading boundary above it would start the response with 200 before forbidden() runs.
export function PageSkeleton() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="sr-only">Učitavanje…</span>
      <div className="skeleton" style={{ height: 34, width: 260, marginBottom: 24 }} />
      <div className="grid stats">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="card stat">
            <div className="skeleton" style={{ height: 14, width: "60%" }} />
            <div className="skeleton" style={{ height: 30, width: "45%", marginTop: 10 }} />
          </div>
        ))}
      </div>
      <div className="card">
        <div className="skeleton" style={{ height: 220 }} />
      </div>
    </div>
  );
}
