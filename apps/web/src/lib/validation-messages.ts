// Croatian messages for the constraints of a form field (required, type, length, range, pattern),
// shown in the page instead of the browser's own bubble, which speaks the browser's language.

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The Croatian message for a field's first failing constraint; "" when the field is valid. */
export function validationMessage(el: Field): string {
  const v = el.validity;
  if (v.valid) return "";
  const type = el instanceof HTMLInputElement ? el.type : "";
  if (v.valueMissing) return el instanceof HTMLSelectElement ? "Odaberite jednu od mogućnosti." : "Ispunite ovo polje.";
  if (v.typeMismatch && type === "email") return "Unesite ispravnu e-mail adresu, npr. ime@tvrtka.hr.";
  if (v.typeMismatch && type === "url") return "Unesite cijelu adresu, npr. https://primjer.hr/webhook.";
  if (v.badInput) return type === "number" ? "Unesite cijeli broj." : "Neispravna vrijednost.";
  if (v.tooShort && el instanceof HTMLInputElement) return `Unesite barem ${el.minLength} znakova (sada ${el.value.length}).`;
  if (v.tooLong && el instanceof HTMLInputElement) return `Najviše ${el.maxLength} znakova.`;
  if (v.rangeUnderflow && el instanceof HTMLInputElement) return `Najmanja dopuštena vrijednost je ${el.min}.`;
  if (v.rangeOverflow && el instanceof HTMLInputElement) return `Najveća dopuštena vrijednost je ${el.max}.`;
  if (v.stepMismatch) return "Unesite cijeli broj.";
  if (v.patternMismatch) return el.title || "Vrijednost nije u očekivanom obliku.";
  return "Neispravna vrijednost.";
}
