import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateTestCertificate } from "./certificate.ts";
import { computeZki, createCisSimulator, formatCisDateTime, type FiscalizeRequest, TaxAuthorityError, zkiInputString } from "./cis.ts";

const KEY_PEM = readFileSync(new URL("./__fixtures__/zki-test-key.pem", import.meta.url), "utf8");

describe("formatCisDateTime (Europe/Zagreb wall clock)", () => {
  it("uses CET (+01:00) in winter and CEST (+02:00) in summer", () => {
    expect(formatCisDateTime(new Date("2026-01-05T08:04:09Z"))).toBe("05.01.2026 09:04:09");
    expect(formatCisDateTime(new Date("2026-07-15T08:04:09Z"))).toBe("15.07.2026 10:04:09");
  });

  it("jumps from 01:59:59 to 03:00:00 when DST starts (29 March 2026)", () => {
    expect(formatCisDateTime(new Date("2026-03-29T00:59:59Z"))).toBe("29.03.2026 01:59:59");
    expect(formatCisDateTime(new Date("2026-03-29T01:00:00Z"))).toBe("29.03.2026 03:00:00");
  });

  it("repeats 02:00–02:59 when DST ends (25 October 2026)", () => {
    expect(formatCisDateTime(new Date("2026-10-25T00:30:00Z"))).toBe("25.10.2026 02:30:00");
    expect(formatCisDateTime(new Date("2026-10-25T01:30:00Z"))).toBe("25.10.2026 02:30:00");
    expect(formatCisDateTime(new Date("2026-10-25T02:00:00Z"))).toBe("25.10.2026 03:00:00");
  });

  it("rolls the date over at local midnight, not UTC midnight", () => {
    expect(formatCisDateTime(new Date("2026-12-31T23:30:00Z"))).toBe("01.01.2027 00:30:00");
    expect(formatCisDateTime(new Date("2026-06-30T22:00:00Z"))).toBe("01.07.2026 00:00:00");
  });

  it("refuses an invalid date", () => {
    expect(() => formatCisDateTime(new Date("nope"))).toThrow(RangeError);
  });
});

describe("computeZki", () => {
  const receipt = { oib: "69435151530", issuedAt: new Date("2026-03-15T09:30:05Z"), number: "1234", premises: "POS1", device: "2", total: "125.00" };

  it("signs OIB + date/time + number + premises + device + total", () => {
    expect(zkiInputString(receipt)).toBe("6943515153015.03.2026 10:30:051234POS12125.00");
    expect(zkiInputString({ ...receipt, total: "125" })).toBe("6943515153015.03.2026 10:30:051234POS12125.00");
  });

  it("matches vectors computed independently with OpenSSL", () => {
    // Expected values were produced once, while writing this test, with:
    //   printf '%s' '6943515153015.03.2026 10:30:051234POS12125.00' \
    //     | openssl dgst -sha1 -sign src/__fixtures__/zki-test-key.pem | openssl md5
    //   printf '%s' '6943515153026.10.2026 02:30:00777POS12310.50' | (same pipeline)
    expect(computeZki(receipt, KEY_PEM)).toBe("ba216875cff3d4e578d6504d9712b320");
    const second = { ...receipt, issuedAt: new Date("2026-10-26T01:30:00Z"), number: "777", premises: "POS1", device: "23", total: "10.5" };
    expect(zkiInputString(second)).toBe("6943515153026.10.2026 02:30:00777POS12310.50");
    expect(computeZki(second, KEY_PEM)).toBe("d2f5fa76e511da71391ca2391e5d0140");
  });

  it("accepts the same key as PKCS#8 and changes with any input field", () => {
    const pkcs8 = createPrivateKey(KEY_PEM).export({ type: "pkcs8", format: "pem" }).toString();
    expect(computeZki(receipt, pkcs8)).toBe("ba216875cff3d4e578d6504d9712b320");
    expect(computeZki({ ...receipt, total: "125.01" }, KEY_PEM)).not.toBe("ba216875cff3d4e578d6504d9712b320");
    expect(computeZki({ ...receipt, issuedAt: new Date("2026-03-15T09:30:06Z") }, KEY_PEM)).not.toBe("ba216875cff3d4e578d6504d9712b320");
  });

  it("throws on a bad key or a bad total", () => {
    expect(() => computeZki(receipt, "not a key")).toThrow();
    expect(() => computeZki({ ...receipt, total: "1.234" }, KEY_PEM)).toThrow(RangeError);
  });
});

describe("CIS simulator", () => {
  const cert = generateTestCertificate({ oib: "69435151530", name: "Test obrt" });
  const request = (over: Partial<FiscalizeRequest["receipt"]> = {}, zki = "ba216875cff3d4e578d6504d9712b320"): FiscalizeRequest => ({
    receipt: {
      oib: "69435151530",
      issuedAt: new Date(),
      number: "1",
      premises: "POS1",
      device: "1",
      total: "125.00",
      paymentMethod: "K",
      operatorOib: "94577403194",
      vatRegistered: true,
      sequence: "P",
      ...over,
    },
    zki,
    certPem: cert.certPem,
    messageId: "6e0bd1f4-3e39-4c57-9f59-3a8f5c7a4b1e",
  });
  const fast = { latencyMs: [1, 3] as [number, number] };
  const rejection = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TaxAuthorityError);
    return err as TaxAuthorityError;
  };

  it("returns a UUID v4 JIR for a valid request", async () => {
    const cis = createCisSimulator(fast);
    const before = Date.now();
    const { jir, receivedAt } = await cis.fiscalize(request());
    expect(jir).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(receivedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect((await cis.fiscalize(request())).jir).not.toBe(jir);
  });

  it("takes at least the configured latency", async () => {
    const cis = createCisSimulator({ latencyMs: [40, 40] });
    const t = performance.now();
    await cis.fiscalize(request());
    expect(performance.now() - t).toBeGreaterThanOrEqual(35);
  });

  it("rejects what CIS would reject, with CIS-like codes", async () => {
    const cis = createCisSimulator(fast);
    const cases: [FiscalizeRequest, string, RegExp][] = [
      [request({ oib: "69435151531" }), "s001", /OIB/],
      [request({ total: "125.0" }), "s001", /total/],
      [request({ total: "12,50" }), "s001", /total/],
      [request({ number: "" }), "s001", /number/],
      [request({ paymentMethod: "X" as "G" }), "s001", /paymentMethod/],
      [request({ paymentMethod: "C" as "G" }), "s001", /paymentMethod/],
      [request({ operatorOib: undefined as unknown as string }), "s001", /OibOper/], // missing, as untyped input may be
      [request({ operatorOib: "94577403195" }), "s001", /OibOper/],
      [request({ vatRegistered: undefined as unknown as boolean }), "s001", /USustPdv/], // missing, as untyped input may be
      [request({ sequence: "X" as "P" }), "s001", /OznSlijed/],
      [request({}, "BA216875CFF3D4E578D6504D9712B320"), "s001", /zki/],
      [request({}, "abc"), "s001", /zki/],
      [{ ...request(), certPem: "garbage" }, "s002", /certificate/],
      [request({ oib: "94577403194" }), "s005", /OIB/],
    ];
    for (const [req, code, message] of cases) {
      const err = await rejection(cis.fiscalize(req));
      expect(err.kind).toBe("rejected");
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
    }
  });

  it("refuses requests beyond its capacity ceiling while others are in flight", async () => {
    const cis = createCisSimulator({ latencyMs: [30, 30], maxConcurrent: 2 });
    const first = cis.fiscalize(request());
    const second = cis.fiscalize(request());
    expect(cis.inFlight).toBe(2);
    const err = await rejection(cis.fiscalize(request()));
    expect(err.kind).toBe("unavailable");
    expect(err.message).toMatch(/capacity/);
    await Promise.all([first, second]);
    expect(cis.inFlight).toBe(0);
    await expect(cis.fiscalize(request())).resolves.toHaveProperty("jir");
  });

  it("fails the next N requests when told to, then recovers", async () => {
    const cis = createCisSimulator({ ...fast, failNext: 1 });
    expect((await rejection(cis.fiscalize(request()))).code).toBe("s006");
    await expect(cis.fiscalize(request())).resolves.toHaveProperty("jir");
    cis.inject({ failNext: 2 });
    const errs = await Promise.all([cis.fiscalize(request()), cis.fiscalize(request())].map(rejection));
    expect(errs.map((e) => e.kind)).toEqual(["unavailable", "unavailable"]);
    await expect(cis.fiscalize(request())).resolves.toHaveProperty("jir");
    expect(cis.inFlight).toBe(0);
  });

  it("fails at the injected rate, driven by the random source", async () => {
    const values = [0.1, 0.5, 0.9, 0.5];
    let i = 0;
    // Each request draws once for failure and once for latency.
    const cis = createCisSimulator({ ...fast, failureRate: 0.3, random: () => values[i++ % values.length]! });
    await expect(cis.fiscalize(request())).rejects.toMatchObject({ kind: "unavailable", code: "s006" });
    await expect(cis.fiscalize(request())).resolves.toHaveProperty("jir");
    cis.inject({ failureRate: 0 });
    await expect(cis.fiscalize(request())).resolves.toHaveProperty("jir");
  });
});
