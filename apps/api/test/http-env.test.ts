// The HTTP listener's connection cap and timeouts come from the environment.
import { describe, expect, it } from "vitest";
import { loadEnv } from "../src/env.ts";

const env = (vars: Record<string, string>) => loadEnv(vars as NodeJS.ProcessEnv);

describe("HTTP listener settings", () => {
  it("are unset by default (the server's defaults apply) and read when given", () => {
    const none = env({});
    expect([none.HTTP_MAX_CONNECTIONS, none.HTTP_HEADERS_TIMEOUT_MS, none.HTTP_REQUEST_TIMEOUT_MS]).toEqual([undefined, undefined, undefined]);
    const set = env({ HTTP_MAX_CONNECTIONS: "500", HTTP_HEADERS_TIMEOUT_MS: "5000", HTTP_REQUEST_TIMEOUT_MS: "20000" });
    expect([set.HTTP_MAX_CONNECTIONS, set.HTTP_HEADERS_TIMEOUT_MS, set.HTTP_REQUEST_TIMEOUT_MS]).toEqual([500, 5_000, 20_000]);
  });

  it("refuse values that would disable the protection", () => {
    expect(() => env({ HTTP_MAX_CONNECTIONS: "0" })).toThrow(/HTTP_MAX_CONNECTIONS/);
    expect(() => env({ HTTP_REQUEST_TIMEOUT_MS: "0" })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
    expect(() => env({ HTTP_HEADERS_TIMEOUT_MS: "soon" })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});
