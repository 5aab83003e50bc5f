// Custom Enterprise limits: the three plan windows plus optional per-minute endpoint overrides.
// Endpoint limits and the bounds arrive as props from the server page (@fiskal/limits): importing the
// package here would bring zod into the browser, whose eval probe the Content Security Policy blocks.
import type { EndpointGroup } from "@fiskal/limits/plans";

type Defaults = { burst: number; perMinute: number; perDay: number; endpoints?: Partial<Record<string, number>> };

export type EndpointLimitTable = Record<string, { perMinute: number; label: string }>;

/** The largest limits an operator may set (MAX_ROLLING_LIMIT, MAX_DAY_LIMIT of @fiskal/limits). */
export type LimitBounds = { rolling: number; day: number };

export function LimitsFields({ idPrefix, defaults, endpoints, bounds }: { idPrefix: string; defaults?: Defaults; endpoints: EndpointLimitTable; bounds: LimitBounds }) {
  const f = (name: "burst" | "perMinute" | "perDay", label: string) => (
    <div className="field">
      <label htmlFor={`${idPrefix}-${name}`}>{label}</label>
      <input id={`${idPrefix}-${name}`} name={name} type="number" min={1} max={name === "perDay" ? bounds.day : bounds.rolling} step={1} required defaultValue={defaults?.[name]} data-testid={`${idPrefix}-${name}`} />
    </div>
  );
  return (
    <>
      <div className="inline-form">
        {f("burst", "U sekundi")}
        {f("perMinute", "U minuti")}
        {f("perDay", "Dnevno")}
      </div>
      <details style={{ marginTop: 10 }}>
        <summary style={{ cursor: "pointer", color: "var(--muted)", fontSize: "0.88rem" }}>Ograničenja endpointa (neobavezno)</summary>
        <div className="inline-form" style={{ marginTop: 8 }}>
          {Object.entries(endpoints).map(([g, e]) => (
            <div className="field" key={g}>
              <label htmlFor={`${idPrefix}-ep-${g}`}>
                <span className="mono">{e.label}</span> / min
              </label>
              <input
                id={`${idPrefix}-ep-${g}`}
                name={`ep-${g}`}
                type="number"
                min={1}
                max={bounds.rolling}
                step={1}
                placeholder={`standardno ${e.perMinute}`}
                defaultValue={defaults?.endpoints?.[g]}
              />
            </div>
          ))}
        </div>
      </details>
    </>
  );
}

export function readLimits(form: FormData, groups: string[]) {
  const endpoints: Partial<Record<EndpointGroup, number>> = {};
  for (const g of groups as EndpointGroup[]) {
    const raw = String(form.get(`ep-${g}`) ?? "").trim();
    if (raw) endpoints[g] = Number(raw);
  }
  return {
    burst: Number(form.get("burst")),
    perMinute: Number(form.get("perMinute")),
    perDay: Number(form.get("perDay")),
    ...(Object.keys(endpoints).length ? { endpoints } : {}),
  };
}
