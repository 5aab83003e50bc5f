// Sends through the real SMTP catcher over TCP and reads the messages back: the Croatian text must
// survive quoted-printable bodies and RFC 2047 headers byte for byte.
import net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  createMailer,
  invitationMail,
  newDeviceSignInMail,
  planApprovedMail,
  rateLimitWarningMail,
  signupExistingAccountMail,
  SmtpError,
  startCatcher,
  type Catcher,
} from "../src/index.ts";

let catcher: Catcher;
beforeAll(async () => {
  catcher = await startCatcher();
});
afterAll(async () => {
  await catcher.close();
});
beforeEach(() => catcher.clear());

/** A hand-typed SMTP conversation, independent of the client under test: each step waits for its reply. */
async function converse(url: string, steps: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let heard = "";
  socket.on("data", (d: Buffer) => (heard += d.toString("utf8")));
  const replies = () => heard.split("\r\n").filter((l) => /^\d{3} /.test(l)).length;
  const waitReplies = async (n: number) => {
    const until = Date.now() + 5_000;
    while (replies() < n && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  };
  await waitReplies(1);
  for (const [i, step] of steps.entries()) {
    socket.write(step + "\r\n");
    await waitReplies(i + 2);
  }
  socket.end();
  if (!socket.closed) await new Promise((r) => socket.once("close", r));
  return heard;
}

describe("mailer → catcher over SMTP", () => {
  it("delivers Croatian subject and body, encoded as ASCII on the wire", async () => {
    const mailer = createMailer({ url: catcher.smtpUrl.replace("smtp://", "smtp://korisnik:tajna%40lozinka@"), from: "Fiskal obavijesti <obavijesti@fiskal.hr>" });
    const subject = "Čestitamo: odobren je paket Poslovni — šđčćž ŠĐČĆŽ";
    const text = "Poštovani,\n\nvaš zahtjev je odobren. Žuta kuća, đak, ćevapčići.\n.Linija koja počinje točkom.\n" + "dugi redak ".repeat(20);
    const result = await mailer.send({ to: "Ana Horvat <ana@tvrtka.hr>", subject, text, html: "<p>Poštovani, <b>čćžšđ</b></p>" });
    expect(result.response).toMatch(/^250 /);

    const [m] = catcher.messages({ to: "ana@tvrtka.hr" });
    expect(m).toBeDefined();
    expect(m!.envelope).toEqual({ from: "obavijesti@fiskal.hr", to: ["ana@tvrtka.hr"] });
    expect(m!.subject).toBe(subject);
    expect(m!.from).toBe('"Fiskal obavijesti" <obavijesti@fiskal.hr>');
    expect(m!.to).toBe('"Ana Horvat" <ana@tvrtka.hr>');
    expect(m!.text).toBe(text.replace(/\n$/, ""));
    expect(m!.html).toBe("<p>Poštovani, <b>čćžšđ</b></p>");

    // On the wire: 7-bit only, subject in UTF-8 encoded words, body quoted-printable, lines ≤ 78.
    expect([...m!.raw].every((c) => c.charCodeAt(0) < 0x80)).toBe(true);
    expect(m!.raw).toMatch(/^Subject: =\?UTF-8\?B\?/m);
    expect(m!.raw).toContain("Content-Transfer-Encoding: quoted-printable");
    expect(m!.raw).toContain("Po=C5=A1tovani,");
    for (const line of m!.raw.split("\r\n")) expect(line.length, line).toBeLessThanOrEqual(78);
  });

  it("the catcher reads a base64 body and Q-encoded subject typed by hand, and serves it over HTTP", async () => {
    const body = Buffer.from("Računovođa je pozvan u tim.\r\n", "utf8").toString("base64");
    const heard = await converse(catcher.smtpUrl, [
      "EHLO test",
      "MAIL FROM:<a@b.hr>",
      "RCPT TO:<marko@tvrtka.hr>",
      "DATA",
      [
        "Subject: =?utf-8?Q?Pozivnica_za_ra=C4=8Dunovo=C4=91u?=",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: base64",
        "",
        body,
        ".",
      ].join("\r\n"),
      "QUIT",
    ]);
    expect(heard).toMatch(/^220 /);
    expect(heard).toContain("250 OK stored");
    expect(heard).toContain("221 ");

    const res = await fetch(`${catcher.httpUrl}/messages?to=marko@tvrtka.hr`);
    expect(res.headers.get("content-type")).toContain("charset=utf-8");
    const list = (await res.json()) as { subject: string; text: string }[];
    expect(list).toHaveLength(1);
    expect(list[0]!.subject).toBe("Pozivnica za računovođu");
    expect(list[0]!.text).toBe("Računovođa je pozvan u tim.");
  });

  it("refuses a recipient that would inject headers, and reports an unreachable server", async () => {
    const mailer = createMailer({ url: catcher.smtpUrl });
    await expect(mailer.send({ to: "a@b.hr\r\nBcc: x@y.hr", subject: "x", text: "x" })).rejects.toThrow(/recipient/);
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, "127.0.0.1", () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    await expect(createMailer({ url: `smtp://127.0.0.1:${closed}` }).send({ to: "a@b.hr", subject: "x", text: "x" })).rejects.toBeInstanceOf(SmtpError);
    expect(catcher.messages()).toHaveLength(0);
  });

  it("every template arrives in Croatian", async () => {
    const mailer = createMailer({ url: catcher.smtpUrl });
    const at = new Date("2026-11-26T13:05:00Z");
    const mails = [
      invitationMail({ accountName: "Obrt Žarko", invitedBy: "vlasnik@obrt.hr", role: "ACCOUNTANT", url: "http://portal/invite/abc", expiresAt: at }),
      planApprovedMail({ accountName: "Obrt Žarko", plan: "Pro", portalUrl: "http://portal" }),
      rateLimitWarningMail({ accountName: "Obrt Žarko", used: 8000, limit: 10000, threshold: 0.8, resetsAt: at, portalUrl: "http://portal" }),
      newDeviceSignInMail({ at, ip: "127.0.0.2", device: "Chrome na Linuxu", sessionsUrl: "http://portal/account/sessions" }),
      signupExistingAccountMail({ email: "vlasnik@obrt.hr", loginUrl: "http://portal/login" }),
    ];
    for (const mail of mails) await mailer.send({ to: "vlasnik@obrt.hr", ...mail });
    const got = catcher.messages({ to: "vlasnik@obrt.hr" });
    expect(got.map((m) => m.subject)).toEqual([
      "Poziv u tim tvrtke Obrt Žarko na Fiskalu",
      "Odobren je paket Pro",
      "Potrošeno je 80 % dnevne kvote",
      "Nova prijava na Fiskal s novog uređaja",
      "Pokušaj registracije s vašom adresom",
    ]);
    expect(got[0]!.text).toContain("s ulogom: računovođa");
    expect(got[0]!.text).toContain("Poziv vrijedi do 26. 11. 2026. u 14:05");
    expect(got[0]!.text).toContain("Prihvati poziv: http://portal/invite/abc");
    expect(got[2]!.text).toContain("iskoristila 8.000 od 10.000 zahtjeva");
    expect(got[3]!.text).toContain("Chrome na Linuxu (adresa 127.0.0.2)");
    for (const m of got) expect(m.html).toContain('<html lang="hr">');
  });
});
