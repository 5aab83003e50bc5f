// Exact decimal arithmetic on scaled BigInt: money never passes through a float.

/** A decimal number as `units × 10^-scale`. */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;
const MONEY = /^-?\d+(?:\.\d{1,2})?$/;

/** Parses a plain decimal string ("12", "-0.125"); no exponent, no "+", no spaces, no comma. */
export function parseDecimal(s: string, maxScale = 10): Decimal | null {
  const m = DECIMAL.exec(s);
  if (!m) return null;
  const fraction = m[3] ?? "";
  if (fraction.length > maxScale) return null;
  const units = BigInt((m[2] ?? "") + fraction);
  return { units: m[1] === "-" ? -units : units, scale: fraction.length };
}

/** Product of two decimals, exact. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return { units: a.units * b.units, scale: a.scale + b.scale };
}

/**
 * Rounds to `scale` places, half away from zero (the commercial rounding used on
 * Croatian invoices: 0.005 → 0.01, -0.005 → -0.01).
 */
export function roundDecimal(d: Decimal, scale: number): bigint {
  if (d.scale <= scale) return d.units * 10n ** BigInt(scale - d.scale);
  const divisor = 10n ** BigInt(d.scale - scale);
  const negative = d.units < 0n;
  const abs = negative ? -d.units : d.units;
  let q = abs / divisor;
  if ((abs % divisor) * 2n >= divisor) q += 1n;
  return negative ? -q : q;
}

/** True when `s` is a money amount with at most two decimals ("125", "125.5", "-3.20"). */
export function isMoney(s: string): boolean {
  return MONEY.test(s);
}

/** "125.00" → 12500n. Throws RangeError on anything but a decimal with at most 2 places. */
export function parseMoney(s: string): bigint {
  if (typeof s !== "string" || !MONEY.test(s)) {
    throw new RangeError(`not a money amount (decimal with at most 2 places): ${JSON.stringify(s)}`);
  }
  const d = parseDecimal(s, 2);
  if (!d) throw new RangeError(`not a money amount: ${JSON.stringify(s)}`);
  return roundDecimal(d, 2);
}

/** 12500n → "125.00"; always two decimals, "-" for negatives. */
export function formatMoney(cents: bigint): string {
  return formatScaled(cents, 2);
}

/** Formats `units × 10^-scale` with exactly `scale` decimals. */
export function formatScaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return (negative ? "-" : "") + (scale > 0 ? `${int}.${frac}` : int);
}

/** Shortest plain form of a decimal ("25.00" → "25", "1.50" → "1.5"). */
export function normalizeDecimal(d: Decimal): string {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return formatScaled(units, scale);
}
