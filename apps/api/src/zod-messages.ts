// Our own messages for input problems zod finds (the `details` of a 400 validation_error), in
// Croatian like every other error message. A schema's own message (e.g. an invalid OIB) still wins:
// zod uses this map only where a schema gives none.
import { z } from "zod";

const TYPE_NAMES: Record<string, string> = {
  string: "tekst (string)",
  number: "broj",
  int: "cijeli broj",
  bigint: "cijeli broj",
  boolean: "true ili false",
  object: "objekt",
  array: "polje (array)",
  date: "datum",
  null: "null",
  undefined: "ništa",
};

function typeName(t: unknown): string {
  return TYPE_NAMES[String(t)] ?? String(t);
}

/** What the client actually sent, named the way a JSON reader would. */
function received(input: unknown): string {
  if (input === undefined) return "ništa (polje nedostaje)";
  if (input === null) return "null";
  if (Array.isArray(input)) return "polje (array)";
  return typeName(typeof input);
}

type Issue = z.core.$ZodRawIssue;

function bound(origin: unknown, n: unknown, more: boolean, inclusive: boolean | undefined): string {
  const v = String(n);
  switch (origin) {
    case "string":
      return more ? `Tekst mora imati barem ${v} znakova.` : `Tekst može imati najviše ${v} znakova.`;
    case "array":
    case "set":
      return more ? `Potrebno je barem ${v} vrijednosti.` : `Dopušteno je najviše ${v} vrijednosti.`;
    default:
      if (more) return inclusive === false ? `Vrijednost mora biti veća od ${v}.` : `Vrijednost mora biti barem ${v}.`;
      return inclusive === false ? `Vrijednost mora biti manja od ${v}.` : `Vrijednost može biti najviše ${v}.`;
  }
}

export function croatianIssueMessage(issue: Issue): string | undefined {
  const i = issue;
  switch (issue.code) {
    case "invalid_type":
      return i.input === undefined ? "Polje je obavezno." : `Očekivan je ${typeName(i.expected)}, a poslan je ${received(i.input)}.`;
    case "too_small":
      return bound(i.origin, i.minimum, true, i.inclusive as boolean | undefined);
    case "too_big":
      return bound(i.origin, i.maximum, false, i.inclusive as boolean | undefined);
    case "invalid_format":
      if (i.format === "regex") return "Vrijednost nije u propisanom obliku.";
      return `Vrijednost nije ispravnog oblika (${String(i.format)}).`;
    case "not_multiple_of":
      return `Vrijednost mora biti višekratnik broja ${String(i.divisor)}.`;
    case "unrecognized_keys": {
      const keys = (i.keys as string[] | undefined) ?? [];
      return keys.length === 1 ? `Nepoznato polje: ${keys[0]}.` : `Nepoznata polja: ${keys.join(", ")}.`;
    }
    case "invalid_value": {
      const values = ((i.values as unknown[] | undefined) ?? []).map((v) => JSON.stringify(v));
      return values.length === 1 ? `Dopuštena je samo vrijednost ${values[0]}.` : `Dopuštene vrijednosti: ${values.join(", ")}.`;
    }
    case "invalid_union":
      return "Vrijednost ne odgovara nijednom dopuštenom obliku.";
    case "invalid_key":
      return "Neispravan ključ.";
    case "invalid_element":
      return "Neispravna vrijednost u popisu.";
    case "custom":
      return "Neispravna vrijednost.";
    default:
      return "Neispravna vrijednost.";
  }
}

z.config({ customError: croatianIssueMessage });
