import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DescriptionText } from "./DescriptionText.tsx";

const html = (text: string, names: string[] = []) => renderToStaticMarkup(createElement(DescriptionText, { text, names: new Set(names) }));

describe("DescriptionText", () => {
  it("sets JSON shapes, quoted values, enum values and field names as code", () => {
    expect(html('Pogreške imaju oblik {"error":{"code","message","doc_url"}}.')).toBe(
      "Pogreške imaju oblik <code>{&quot;error&quot;:{&quot;code&quot;,&quot;message&quot;,&quot;doc_url&quot;}}</code>.",
    );
    expect(html('"fiscalized": JIR je zaprimljen; "pending": poslan')).toBe("<code>fiscalized</code>: JIR je zaprimljen; <code>pending</code>: poslan");
    expect(html("recorded: evidentiran; refused: odbijeno (vidi error).", ["error"])).toBe(
      "<code>recorded</code>: evidentiran; <code>refused</code>: odbijeno (vidi <code>error</code>).",
    );
  });
  it("leaves ordinary words alone", () => {
    expect(html("Broj računa: do 20 znakova.")).toBe("Broj računa: do 20 znakova.");
  });
});
