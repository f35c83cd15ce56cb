import { describe, expect, it } from "vitest";
import { labelTerms } from "./label-terms.js";

describe("labelTerms", () => {
  it.each([
    { name: "snake_case", text: "invoice_number", terms: ["invoice", "number"] },
    { name: "camelCase", text: "invoiceNumber", terms: ["invoice", "number"] },
    { name: "PascalCase with an acronym", text: "VATNumber", terms: ["vat", "number"] },
    { name: "kebab-case", text: "due-date", terms: ["due", "date"] },
    { name: "abbreviation with a period", text: "Invoice No.", terms: ["invoice", "number"] },
    {
      name: "description words, stop words dropped",
      text: "the total amount due",
      terms: ["total", "amount", "due"],
    },
    { name: "plural", text: "Line items", terms: ["line", "item"] },
    { name: "German umlaut", text: "Rechnungsnummer Größe", terms: ["rechnungsnummer", "grosse"] },
    { name: "Japanese", text: "請求書番号", terms: ["請求", "求書", "書番", "番号"] },
  ])("$name", ({ text, terms }) => {
    expect(labelTerms(text)).toEqual(terms);
  });
});
