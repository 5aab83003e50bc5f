// TOTP against RFC 6238's own test vectors (Appendix B, SHA-1) and the replay rule.
import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hashRecoveryCode, hotp, newRecoveryCodes, newTotpSecret, otpauthUri, totpCode, verifyTotp } from "./totp";

const RFC_KEY = Buffer.from("12345678901234567890", "ascii");

describe("TOTP", () => {
  it("gives RFC 6238's codes (8 digits, SHA-1) at the appendix's times", () => {
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
      [20000000000, "65353130"],
    ];
    for (const [t, code] of vectors) expect(hotp(RFC_KEY, Math.floor(t / 30), 8)).toBe(code);
  });

  it("base32 round-trips and reads RFC 4648's example", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("MZXW6YTBOI").toString()).toBe("foobar");
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
  });

  it("accepts now ± 30 s, refuses older, and never the same step twice", () => {
    const secret = base32Encode(RFC_KEY);
    const at = 1111111111_000;
    const code = totpCode(secret, at);
    expect(code).toBe("050471");
    const step = verifyTotp(secret, code, null, at);
    expect(step).toBe(Math.floor(1111111111 / 30));
    expect(verifyTotp(secret, code, step, at)).toBeNull();
    expect(verifyTotp(secret, totpCode(secret, at - 30_000), null, at)).not.toBeNull();
    expect(verifyTotp(secret, totpCode(secret, at - 90_000), null, at)).toBeNull();
    expect(verifyTotp(secret, "12345", null, at)).toBeNull();
  });

  it("builds the otpauth URI and ten distinct recovery codes", () => {
    expect(otpauthUri("ABC", "ana@primjer.hr")).toBe("otpauth://totp/Fiskal%3Aana%40primjer.hr?secret=ABC&issuer=Fiskal&algorithm=SHA1&digits=6&period=30");
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(hashRecoveryCode(codes[0]!.toUpperCase().replace(/-/g, " "))).toBe(hashRecoveryCode(codes[0]!));
  });
});
