import { describe, expect, it } from "vitest";
import { plural, stavki } from "./plural.ts";

describe("plural", () => {
  it("picks the Croatian form by the last digits", () => {
    const forms = (n: number) => plural(n, "one", "few", "many");
    expect([1, 21, 101].map(forms)).toEqual(["one", "one", "one"]);
    expect([2, 3, 4, 22, 34].map(forms)).toEqual(["few", "few", "few", "few", "few"]);
    expect([0, 5, 11, 12, 13, 14, 20, 111, 112].map(forms)).toEqual(Array(9).fill("many"));
  });
  it("counts items in the API reference's constraints", () => {
    expect(`min. 1 ${stavki(1)}`).toBe("min. 1 stavka");
    expect(`maks. 100 ${stavki(100)}`).toBe("maks. 100 stavki");
    expect(`maks. 2 ${stavki(2)}`).toBe("maks. 2 stavke");
  });
});
