// The receipt's QR code (Fiscalization Act art. 7; CIS spec v2.6 §2.7): a link to the tax
// authority's receipt check with the JIR (or, while the receipt has none, the ZKI), the issue date
// and time and the total in cents, rendered as SVG or PNG.
import QRCode from "qrcode";
import { parseMoney } from "./money.ts";
import { zagrebTime } from "./zagreb.ts";

/** The tax authority's page for checking a receipt. */
export const QR_VERIFY_URL = "https://porezna.gov.hr/rn";

export interface QrReceipt {
  /** The JIR, when CIS has answered with one. */
  jir?: string | null;
  zki: string;
  issuedAt: Date;
  /** Decimal with at most 2 places, e.g. "125.00" or "-105.50". */
  total: string;
}

/** Issue date and time as the QR code carries it: "GGGGMMDD_HHMM" in Zagreb time (13 characters). */
export function qrDateTime(d: Date): string {
  if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw new RangeError("qrDateTime: invalid date");
  const p = zagrebTime(d);
  return `${p.year}${p.month}${p.day}_${p.hour}${p.minute}`;
}

/** The total in cents without leading zeros or separators, "-" for a negative total: "1525.99" → "152599", "47.00" → "4700". */
export function qrAmount(total: string): string {
  return parseMoney(total).toString();
}

/**
 * The link the QR code holds, exactly as §2.7 builds it:
 * `https://porezna.gov.hr/rn?jir=<JIR>&datv=<GGGGMMDD_HHMM>&izn=<cents>`, or `?zki=<ZKI>&…` while
 * the receipt has no JIR.
 */
export function receiptQrUrl(r: QrReceipt): string {
  const id = r.jir ? `jir=${r.jir}` : `zki=${r.zki}`;
  return `${QR_VERIFY_URL}?${id}&datv=${qrDateTime(r.issuedAt)}&izn=${qrAmount(r.total)}`;
}

// The smallest version that holds the link, with at least error correction level L (§2.7); the
// library picks the smallest version for the level. Quiet zone: 4 modules, as ISO/IEC 18004 asks.
const LEVEL = "L" as const;
const MARGIN = 4;
/** The code itself must print at least 2 × 2 cm (§2.7). */
const MIN_CODE_MM = 20;

/**
 * SVG of the receipt's QR code, sized in millimetres so that the code itself prints at least
 * 2 × 2 cm with its quiet zone (at least 2 mm) around it, and labelled for screen readers.
 */
export async function receiptQrSvg(url: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: LEVEL, margin: MARGIN, color: { dark: "#000000", light: "#ffffff" } });
  const modules = QRCode.create(url, { errorCorrectionLevel: LEVEL }).modules.size;
  const sizeMm = Math.ceil((MIN_CODE_MM * (modules + 2 * MARGIN)) / modules);
  return svg.replace(
    /^<svg /,
    `<svg width="${sizeMm}mm" height="${sizeMm}mm" role="img" aria-label="QR kod za provjeru računa" `,
  ).replace(/>/, `><title>QR kod za provjeru računa: ${escapeXml(url)}</title>`);
}

/** PNG of the receipt's QR code, `width` pixels wide (quiet zone included). */
export function receiptQrPng(url: string, width = 300): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: "png", errorCorrectionLevel: LEVEL, margin: MARGIN, width });
}

function escapeXml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
