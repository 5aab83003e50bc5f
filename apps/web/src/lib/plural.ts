// Croatian plural forms: 1, 21, 31… take the singular; 2–4, 22–24… the paucal; the rest (5–20,
// 11–14, 25–30…) the genitive plural.
export function plural(n: number, one: string, few: string, many: string): string {
  const abs = Math.abs(Math.trunc(n));
  const mod10 = abs % 10;
  const mod100 = abs % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

export const zahtjeva = (n: number) => plural(n, "zahtjev", "zahtjeva", "zahtjeva");
export const stavki = (n: number) => plural(n, "stavka", "stavke", "stavki");
