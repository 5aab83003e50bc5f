export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="sr-only">Učitavanje dokumentacije…</span>
      <div className="skeleton" style={{ height: 38, width: 300, marginBottom: 20 }} />
      <div className="skeleton" style={{ height: 18, width: "80%", marginBottom: 10 }} />
      <div className="skeleton" style={{ height: 18, width: "65%", marginBottom: 28 }} />
      <div className="skeleton" style={{ height: 160 }} />
    </div>
  );
}
