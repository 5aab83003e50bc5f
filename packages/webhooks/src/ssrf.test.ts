import { describe, expect, it } from "vitest";
import { checkAddress, validateWebhookUrl } from "./ssrf.ts";

const refused: [string, RegExp][] = [
  ["ftp://example.com/hook", /scheme ftp/],
  ["file:///etc/passwd", /scheme file/],
  ["javascript:alert(1)", /scheme javascript/],
  ["gopher://example.com/", /scheme gopher/],
  ["https://user:pass@example.com/hook", /credentials/],
  ["https://token@example.com/hook", /credentials/],
  ["not a url", /not a valid/],
  ["http://127.0.0.1/hook", /loopback/],
  ["http://127.1/hook", /loopback/],
  ["http://2130706433/hook", /loopback/],
  ["http://0x7f000001/hook", /loopback/],
  ["http://0x7f.0.0.1/hook", /loopback/],
  ["http://0177.0.0.1/hook", /loopback/],
  ["http://localhost:8080/hook", /loopback/],
  ["http://[::1]/hook", /loopback/],
  ["http://[::ffff:127.0.0.1]/hook", /loopback/],
  ["http://[::ffff:7f00:1]/hook", /loopback/],
  ["http://[::ffff:10.0.0.1]/hook", /private/],
  ["http://[::127.0.0.1]/hook", /IPv4-compatible/],
  ["http://[::7f00:1]/hook", /IPv4-compatible/],
  ["http://[::10.0.0.1]/hook", /IPv4-compatible/],
  ["http://[::93.184.215.14]/hook", /IPv4-compatible/],
  ["http://10.0.0.1/hook", /private/],
  ["http://172.16.5.4/hook", /private/],
  ["http://192.168.1.1/hook", /private/],
  ["http://169.254.169.254/latest/meta-data/", /linkLocal/],
  ["http://100.64.0.1/hook", /carrierGradeNat/],
  ["http://0.0.0.0/hook", /unspecified/],
  ["http://0/hook", /unspecified/],
  ["http://[::]/hook", /unspecified/],
  ["http://224.0.0.1/hook", /multicast/],
  ["http://255.255.255.255/hook", /broadcast/],
  ["http://[ff02::1]/hook", /multicast/],
  ["http://[fe80::1]/hook", /linkLocal/],
  ["http://[fc00::1]/hook", /uniqueLocal/],
  ["http://[fd12:3456::1]/hook", /uniqueLocal/],
  ["http://[64:ff9b::7f00:1]/hook", /rfc6052/],
  ["http://[2002:7f00:1::]/hook", /6to4/],
  ["http://192.0.2.10/hook", /reserved/],
  ["http://no-such-host.invalid/hook", /does not resolve/],
];

describe("validateWebhookUrl", () => {
  it.each(refused)("refuses %s", async (url, reason) => {
    const result = await validateWebhookUrl(url, { allowPrivate: false });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it.each(["https://93.184.215.14/hook", "https://1.1.1.1:8443/x?y=1", "http://[2606:4700:4700::1111]/hook"])(
    "accepts the public address %s",
    async (url) => {
      const result = await validateWebhookUrl(url, { allowPrivate: false });
      expect(result).toMatchObject({ ok: true });
      if (result.ok) expect(result.url.href).toBe(new URL(url).href);
    },
  );

  it("allows private and loopback targets only when told to, and never the unspecified address", async () => {
    expect(await validateWebhookUrl("http://127.0.0.1:3000/hook", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await validateWebhookUrl("http://localhost:3000/hook", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await validateWebhookUrl("http://10.1.2.3/hook", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await validateWebhookUrl("http://0.0.0.0/hook", { allowPrivate: true })).toMatchObject({ ok: false });
    expect(await validateWebhookUrl("http://[ff02::1]/hook", { allowPrivate: true })).toMatchObject({ ok: false });
    expect(await validateWebhookUrl("http://[::127.0.0.1]/hook", { allowPrivate: true })).toMatchObject({ ok: false });
    expect(await validateWebhookUrl("http://[::1]/hook", { allowPrivate: true })).toMatchObject({ ok: true });
    expect(await validateWebhookUrl("ftp://127.0.0.1/hook", { allowPrivate: true })).toMatchObject({ ok: false });
    expect(await validateWebhookUrl("http://a:b@127.0.0.1/hook", { allowPrivate: true })).toMatchObject({ ok: false });
  });

  it("judges IPv4-mapped IPv6 addresses by the IPv4 address they carry", () => {
    expect(checkAddress("::ffff:169.254.169.254", false)).toMatchObject({ ok: false });
    expect(checkAddress("::ffff:93.184.215.14", false)).toEqual({ ok: true });
    expect(checkAddress("example.com", false)).toMatchObject({ ok: false });
  });
});
