// The tRPC route accepts POST bodies only as application/json, so a cross-site form post (text/plain,
// urlencoded or multipart, sent with the user's cookies) never reaches a procedure.
import { beforeAll, describe, expect, it } from "vitest";

let POST: (req: Request) => Promise<Response> | Response;

beforeAll(async () => {
  // Never connected to: refused requests must not get as far as the context.
  process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:1/unused";
  process.env.NEXTAUTH_SECRET ??= "test-secret-0123456789abcdef";
  ({ POST } = await import("./route"));
});

function post(procedure: string, contentType: string | null, body: BodyInit): Promise<Response> {
  const headers = new Headers();
  if (contentType) headers.set("content-type", contentType);
  return Promise.resolve(POST(new Request(`http://127.0.0.1:3000/api/trpc/${procedure}`, { method: "POST", headers, body })));
}

describe("POST /api/trpc", () => {
  it.each([
    ["multipart/form-data; boundary=----x", '------x\r\nContent-Disposition: form-data; name="name"\r\n\r\nzli\r\n------x--\r\n'],
    ["application/x-www-form-urlencoded", "name=zli"],
    ["text/plain", '{"name":"zli"}'],
    ["application/json-patch+json", '{"name":"zli"}'],
    [null, '{"name":"zli"}'],
  ])("refuses Content-Type %s with 415 before any procedure runs", async (contentType, body) => {
    const res = await post("keys.create", contentType, body);
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: {
        message: "Zahtjev mora imati Content-Type: application/json.",
        code: -32015,
        data: { code: "UNSUPPORTED_MEDIA_TYPE", httpStatus: 415 },
      },
    });
  });

  it.each(["application/json", "Application/JSON; charset=utf-8"])("passes %s on to tRPC", async (contentType) => {
    const res = await post("no.such.procedure", contentType, "{}");
    expect(res.status).not.toBe(415);
    expect((await res.json()).error.data.code).not.toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});
