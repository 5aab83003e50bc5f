// OIB (osobni identifikacijski broj): 10 digits plus an ISO 7064 MOD 11,10 check digit.

const ELEVEN_DIGITS = /^\d{11}$/;

/** The ISO 7064 MOD 11,10 check digit for the first ten digits of an OIB. */
export function oibCheckDigit(firstTen: string): number {
  let a = 10;
  for (let i = 0; i < 10; i++) {
    a = (a + firstTen.charCodeAt(i) - 48) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  const check = 11 - a;
  return check === 10 ? 0 : check;
}

export function isValidOib(oib: string): boolean {
  return checkOib(oib).valid;
}

/** `reason` is "format" for anything but exactly 11 ASCII digits, "checksum" for a wrong check digit. */
export function checkOib(oib: string): { oib: string; valid: boolean; reason?: "format" | "checksum" } {
  if (typeof oib !== "string" || !ELEVEN_DIGITS.test(oib)) return { oib, valid: false, reason: "format" };
  if (oibCheckDigit(oib) !== oib.charCodeAt(10) - 48) return { oib, valid: false, reason: "checksum" };
  return { oib, valid: true };
}
