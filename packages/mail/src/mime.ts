// MIME for UTF-8 mail: RFC 2047 encoded words in headers, quoted-printable bodies (RFC 2045), and
// the reverse for the catcher. Only what this project sends and reads; not a general MIME library.
import { randomBytes } from "node:crypto";

export type OutgoingMessage = {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html?: string;
  date?: Date;
  messageIdDomain?: string;
};

const printable = /^[\x20-\x7e]*$/;

/** A header value as ASCII: unchanged when printable, otherwise UTF-8 base64 encoded words of ≤ 75 characters. */
function encodeHeaderWords(value: string): string {
  if (printable.test(value)) return value;
  const words: string[] = [];
  let chunk = "";
  for (const ch of value) {
    // 39 bytes of UTF-8 → 52 base64 characters; with "=?UTF-8?B?", "?=" and a header name the line stays under 78.
    if (Buffer.byteLength(chunk + ch) > 39) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join("\r\n ");
}

/** "Name <a@b>" with the display name encoded when needed; a bare address stays bare. */
function encodeAddress(address: string): string {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(address);
  if (!m) return address.trim();
  const name = (m[1] ?? "").replace(/^"(.*)"$/, "$1");
  if (!name) return `<${m[2]}>`;
  const shown = printable.test(name) ? `"${name.replace(/["\\]/g, "\\$&")}"` : encodeHeaderWords(name);
  return `${shown} <${m[2]}>`;
}

/** The bare address of "Name <a@b>" or "a@b". */
export function addressOf(address: string): string {
  const m = /<([^>]+)>/.exec(address);
  return (m ? m[1]! : address).trim();
}

/** Quoted-printable (RFC 2045 §6.7) of UTF-8 text with CRLF line ends, soft breaks at 76 characters. */
function encodeQuotedPrintable(text: string): string {
  const lines = text.replace(/\r\n|\r|\n/g, "\n").split("\n");
  return lines
    .map((line) => {
      const bytes = Buffer.from(line, "utf8");
      const out: string[] = [];
      let current = "";
      for (let i = 0; i < bytes.length; i++) {
        const b = bytes[i]!;
        const last = i === bytes.length - 1;
        let token: string;
        if ((b === 0x20 || b === 0x09) && !last) token = String.fromCharCode(b);
        else if (b >= 0x21 && b <= 0x7e && b !== 0x3d) token = String.fromCharCode(b);
        else token = "=" + b.toString(16).toUpperCase().padStart(2, "0");
        if (current.length + token.length > 75) {
          out.push(current + "=");
          current = "";
        }
        current += token;
      }
      out.push(current);
      return out.join("\r\n");
    })
    .join("\r\n");
}

function decodeQuotedPrintable(body: string): string {
  const soft = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === "=" && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(c, "utf8")) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Decodes RFC 2047 encoded words (B and Q, UTF-8 or Latin-1); whitespace between adjacent words is dropped. */
function decodeHeaderWords(value: string): string {
  const unfolded = value.replace(/\r?\n[ \t]+/g, " ");
  return unfolded
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, enc: string, data: string) => {
      const bytes =
        enc.toUpperCase() === "B"
          ? Buffer.from(data, "base64")
          : Buffer.from(decodeQuotedPrintable(data.replace(/_/g, " ")), "utf8");
      return new TextDecoder(charset.toLowerCase() === "utf-8" ? "utf-8" : charset).decode(bytes);
    });
}

function boundary(): string {
  return `=_f_${randomBytes(10).toString("hex")}`;
}

function textPart(type: "plain" | "html", body: string): string {
  return `Content-Type: text/${type}; charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${encodeQuotedPrintable(body)}`;
}

/** The whole message (headers and body, CRLF line ends, ASCII only), ready for DATA before dot-stuffing. */
export function buildMessage(msg: OutgoingMessage): string {
  const date = msg.date ?? new Date();
  const domain = msg.messageIdDomain ?? (addressOf(msg.from).split("@")[1] || "fiskal.local");
  const headers = [
    `From: ${encodeAddress(msg.from)}`,
    `To: ${msg.to.map(encodeAddress).join(", ")}`,
    `Subject: ${encodeHeaderWords(msg.subject)}`,
    `Date: ${date.toUTCString().replace("GMT", "+0000")}`,
    `Message-ID: <${randomBytes(16).toString("hex")}@${domain}>`,
    "MIME-Version: 1.0",
  ];
  if (!msg.html) return `${headers.join("\r\n")}\r\n${textPart("plain", msg.text)}\r\n`;
  const b = boundary();
  return [
    ...headers,
    `Content-Type: multipart/alternative; boundary="${b}"`,
    "",
    `--${b}`,
    textPart("plain", msg.text),
    `--${b}`,
    textPart("html", msg.html),
    `--${b}--`,
    "",
  ].join("\r\n");
}

export type ParsedMessage = {
  /** Decoded headers (lower-case names, RFC 2047 words decoded). */
  headers: Record<string, string>;
  subject: string;
  from: string;
  to: string;
  text: string;
  html: string | null;
};

function splitHead(raw: string): { headers: Record<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { headers, body };
}

function param(header: string, name: string): string | undefined {
  const m = new RegExp(`${name}\\s*=\\s*("([^"]*)"|[^;\\s]+)`, "i").exec(header);
  return m ? (m[2] ?? m[1]) : undefined;
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers["content-transfer-encoding"] ?? "7bit").toLowerCase();
  const charset = param(headers["content-type"] ?? "", "charset") ?? "utf-8";
  let bytes: Buffer;
  if (cte === "base64") bytes = Buffer.from(body.replace(/\s+/g, ""), "base64");
  else if (cte === "quoted-printable") return decodeQuotedPrintable(body);
  else bytes = Buffer.from(body, "latin1");
  return new TextDecoder(charset.toLowerCase()).decode(bytes);
}

/** Reads a message as received by DATA (after un-stuffing): decoded headers, text and HTML parts. */
export function parseMessage(raw: string): ParsedMessage {
  const { headers, body } = splitHead(raw);
  let text = "";
  let html: string | null = null;
  const visit = (h: Record<string, string>, b: string) => {
    const type = (h["content-type"] ?? "text/plain").toLowerCase();
    if (type.startsWith("multipart/")) {
      const bnd = param(h["content-type"] ?? "", "boundary");
      if (!bnd) return;
      const parts = b.split(new RegExp(`\\r?\\n?--${bnd.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:--)?[ \\t]*\\r?\\n?`));
      for (const part of parts.slice(1)) {
        if (!part.trim()) continue;
        const p = splitHead(part);
        visit(p.headers, p.body);
      }
    } else if (type.startsWith("text/html")) html ??= decodeBody(h, b);
    else if (type.startsWith("text/")) text ||= decodeBody(h, b);
  };
  visit(headers, body);
  const decoded: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) decoded[k] = decodeHeaderWords(v);
  return {
    headers: decoded,
    subject: decoded.subject ?? "",
    from: decoded.from ?? "",
    to: decoded.to ?? "",
    text: text.replace(/\r\n/g, "\n").replace(/\n$/, ""),
    html,
  };
}
