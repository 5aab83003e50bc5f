// Descriptions from the OpenAPI document are prose with names of things in them: JSON shapes
// ({"error":{…}}), quoted values ("pending"), enum values before a colon (recorded: …) and field
// names of the operation. Those are set as code, so they read as names, not as words.
import type { ReactNode } from "react";

const TOKEN = /(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})|"([\w.-]+)"|(?:^|(?<=;\s|\(|,\s))([a-z][\w]*)(?=:\s)|\b([A-Za-z_][\w]*)\b/g;

export function DescriptionText({ text, names }: { text: string; names: ReadonlySet<string> }): ReactNode {
  const out: ReactNode[] = [];
  let last = 0;
  let key = 0;
  for (const m of text.matchAll(TOKEN)) {
    const [whole, json, quoted, enumValue, word] = m;
    const code = json ?? quoted ?? enumValue ?? (word && names.has(word) ? word : undefined);
    if (code === undefined) continue;
    out.push(text.slice(last, m.index));
    out.push(<code key={key++}>{code}</code>);
    last = m.index + whole.length;
  }
  out.push(text.slice(last));
  return out;
}
