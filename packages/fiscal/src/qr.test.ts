import jsQR from "jsqr";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { qrAmount, qrDateTime, receiptQrPng, receiptQrSvg, receiptQrUrl } from "./qr.ts";

const JIR = "12345678-1234-1234-1234-123456789012";

/** Rasterises the SVG the QR library writes (one path of horizontal runs) and reads it back with jsQR. */
function decodeSvg(svg: string): string | null {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const d = /<path stroke="#000000" d="([^"]+)"/.exec(svg)![1]!;
  const scale = 8;
  const px = size * scale;
  const data = new Uint8ClampedArray(px * px * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of d.matchAll(/([MmhHvV])(-?[\d.]+)(?:[ ,](-?[\d.]+))?/g)) {
    if (cmd === "M") [x, y] = [Number(a), Number(b)];
    else if (cmd === "m") [x, y] = [x + Number(a), y + Number(b)];
    else if (cmd === "h") {
      const row = Math.floor(y);
      for (let c = x; c < x + Number(a); c++) {
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const i = ((row * scale + dy) * px + c * scale + dx) * 4;
            data[i] = data[i + 1] = data[i + 2] = 0;
          }
        }
      }
      x += Number(a);
    } else throw new Error(`unexpected path command ${cmd}`);
  }
  return jsQR(data, px, px)?.data ?? null;
}

describe("receipt QR code (CIS spec v2.6 §2.7)", () => {
  it("builds exactly the specification's example links", () => {
    // 21.09.2020 06:30 (CEST), 1.525,99 → izn=152599
    expect(receiptQrUrl({ jir: JIR, zki: "x", issuedAt: new Date("2020-09-21T04:30:00Z"), total: "1525.99" })).toBe(
      "https://porezna.gov.hr/rn?jir=12345678-1234-1234-1234-123456789012&datv=20200921_0630&izn=152599",
    );
    // A storno: 10.01.2021 14:00 (CET), -105,50 → izn=-10550
    expect(receiptQrUrl({ jir: JIR, zki: "x", issuedAt: new Date("2021-01-10T13:00:00Z"), total: "-105.50" })).toBe(
      "https://porezna.gov.hr/rn?jir=12345678-1234-1234-1234-123456789012&datv=20210110_1400&izn=-10550",
    );
    // Without a JIR the ZKI stands in: 05.02.2021 08:01, 5,10 → izn=510
    expect(receiptQrUrl({ jir: null, zki: "12345678123412341234123456789012", issuedAt: new Date("2021-02-05T07:01:00Z"), total: "5.10" })).toBe(
      "https://porezna.gov.hr/rn?zki=12345678123412341234123456789012&datv=20210205_0801&izn=510",
    );
    expect(receiptQrUrl({ zki: "12345678123412341234123456789010", issuedAt: new Date("2021-01-01T18:00:00Z"), total: "47.00" })).toBe(
      "https://porezna.gov.hr/rn?zki=12345678123412341234123456789010&datv=20210101_1900&izn=4700",
    );
  });

  it("writes the total in cents without leading zeros, and the time in Zagreb", () => {
    expect(qrAmount("0.05")).toBe("5");
    expect(qrAmount("0.00")).toBe("0");
    expect(qrAmount("-0.50")).toBe("-50");
    expect(qrAmount("125")).toBe("12500");
    expect(qrDateTime(new Date("2026-12-31T23:30:00Z"))).toBe("20270101_0030");
    expect(qrDateTime(new Date("2026-07-15T08:04:59Z"))).toBe("20260715_1004");
    expect(() => qrDateTime(new Date("nope"))).toThrow(RangeError);
  });

  const url = receiptQrUrl({ jir: JIR, zki: "x", issuedAt: new Date("2026-11-21T09:15:00Z"), total: "-1234.56" });

  it("renders a PNG that decodes to the link", async () => {
    const png = PNG.sync.read(await receiptQrPng(url, 400));
    expect(png.width).toBe(400);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(url);
  });

  it("renders an SVG that decodes to the link, prints at least 2 × 2 cm with a 2 mm quiet zone, and is labelled", async () => {
    const svg = await receiptQrSvg(url);
    expect(decodeSvg(svg)).toBe(url);
    const widthMm = Number(/width="(\d+)mm"/.exec(svg)![1]);
    const total = Number(/viewBox="0 0 (\d+) /.exec(svg)![1]);
    const modules = total - 8;
    expect((widthMm * modules) / total).toBeGreaterThanOrEqual(20);
    expect((widthMm * 4) / total).toBeGreaterThanOrEqual(2);
    expect(svg).toMatch(/role="img" aria-label="QR kod za provjeru računa"/);
    expect(svg).toContain(`<title>QR kod za provjeru računa: ${url.replace(/&/g, "&amp;")}</title>`);
  });

  it("uses the smallest version that holds the link (error correction L)", async () => {
    // A JIR link of ~100 characters fits version 5 at level L (37 × 37 modules).
    const svg = await receiptQrSvg(url);
    expect(Number(/viewBox="0 0 (\d+) /.exec(svg)![1]) - 8).toBe(37);
  });
});
