import { describe, expect, it } from "vitest";
import { displayableSignInError, INVALID_CREDENTIALS, safeCallbackPath, SIGN_IN_UNAVAILABLE } from "./auth-messages.ts";

describe("safeCallbackPath", () => {
  it("keeps same-origin paths with their query and hash", () => {
    expect(safeCallbackPath("/keys")).toBe("/keys");
    expect(safeCallbackPath("/plan?x=1#a")).toBe("/plan?x=1#a");
  });
  it("refuses anything that could leave the portal", () => {
    for (const bad of ["//evil.example", "/\\evil.example", "/\t/evil.example", "https://evil.example", "evil", "/%0a/x\n", undefined, ""]) {
      expect(safeCallbackPath(bad)).toBe("/dashboard");
    }
  });
});

describe("displayableSignInError", () => {
  it("passes only our own messages through", () => {
    expect(displayableSignInError("CredentialsSignin")).toBe(INVALID_CREDENTIALS);
    expect(displayableSignInError(INVALID_CREDENTIALS)).toBe(INVALID_CREDENTIALS);
    expect(displayableSignInError("Previše pokušaja prijave. Pokušajte ponovno za 12 sekundi.")).toMatch(/^Previše/);
    expect(displayableSignInError("Invalid `prisma.user.findUnique()` invocation: Can't reach database server")).toBe(SIGN_IN_UNAVAILABLE);
  });
});
