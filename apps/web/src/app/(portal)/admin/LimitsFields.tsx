// Three number inputs for custom Enterprise limits, shared by request approval and account editing.
export function LimitsFields({ idPrefix, defaults }: { idPrefix: string; defaults?: { burst: number; perMinute: number; perDay: number } }) {
  const f = (name: "burst" | "perMinute" | "perDay", label: string) => (
    <div className="field">
      <label htmlFor={`${idPrefix}-${name}`}>{label}</label>
      <input id={`${idPrefix}-${name}`} name={name} type="number" min={1} step={1} required defaultValue={defaults?.[name]} data-testid={`${idPrefix}-${name}`} />
    </div>
  );
  return (
    <div className="inline-form">
      {f("burst", "U sekundi")}
      {f("perMinute", "U minuti")}
      {f("perDay", "Dnevno")}
    </div>
  );
}

export function readLimits(form: FormData) {
  return {
    burst: Number(form.get("burst")),
    perMinute: Number(form.get("perMinute")),
    perDay: Number(form.get("perDay")),
  };
}
