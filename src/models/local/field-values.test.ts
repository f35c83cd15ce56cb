import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Source } from "../../core/types.js";
import { sampleSchema, sampleSources } from "../../sample.js";
import { findFieldValues } from "./field-values.js";

const invoice: Source = {
  id: "invoice",
  text: `INVOICE

Invoice No.: INV-0042
Date: 2024-03-01
Due date — 2024-03-31
**Bill to:**
Jane Smith, 12 Rue Neuve, Lyon

| Item | Qty | Amount |
|---|---|---|
| Consulting | 3 | €1,200.00 |

| Subtotal | €1,200.00 |
| VAT (20%) | €240.00 |
| Total due | €1,440.00 |

Payment is due within 30 days. The contact person is Marc Olivier, who handles billing.
PO Number = PO-7781; Currency: EUR`,
};

/** The found values as `name → value` (null when not found). */
function values(sources: readonly Source[], schema: Record<string, string>): Record<string, string | null> {
  return Object.fromEntries(
    findFieldValues(sources, schema).map(({ name, found }) => [name, found?.value ?? null]),
  );
}

describe("findFieldValues", () => {
  it.each([
    {
      name: "label: value, snake_case name, abbreviated label",
      field: "invoice_number",
      description: "the invoice number",
      value: "INV-0042",
    },
    {
      name: "camelCase name; a plain `Date` beats `Due date`",
      field: "invoiceDate",
      description: "date the invoice was issued",
      value: "2024-03-01",
    },
    { name: "label — value", field: "due_date", description: "payment due date", value: "2024-03-31" },
    {
      name: "value on the line after a lone label",
      field: "bill_to",
      description: "customer name and address",
      value: "Jane Smith, 12 Rue Neuve, Lyon",
    },
    { name: "| label | value | row", field: "vat", description: "VAT amount", value: "€240.00" },
    {
      name: "row label matched through the description",
      field: "total",
      description: "total amount due including VAT",
      value: "€1,440.00",
    },
    {
      name: "row and column of a table with a header",
      field: "consulting_qty",
      description: "quantity of consulting",
      value: "3",
    },
    { name: "label = value", field: "poNumber", description: "purchase order number", value: "PO-7781" },
    { name: "second pair on a line", field: "currency", description: "currency code", value: "EUR" },
    { name: "prose: `X is Y`", field: "contact", description: "contact person", value: "Marc Olivier" },
    { name: "nothing relevant", field: "iban", description: "bank account IBAN", value: null },
    {
      name: "a label sharing only a generic word is not enough",
      field: "order_number",
      description: "the sales order number",
      value: null,
    },
  ])("$name: $field", ({ field, description, value }) => {
    expect(values([invoice], { [field]: description })).toEqual({ [field]: value });
  });

  it("falls back to the rest of the clause after the sentence that names the field", () => {
    const sources = [
      { id: "s", text: "Intro.\nNorthwind's headcount reached 412 people in December, a record." },
    ];
    expect(findFieldValues(sources, { headcount: "number of people employed" })).toEqual([
      {
        name: "headcount",
        found: { value: "reached 412 people in December", source: "s", start: 29, end: 59 },
      },
    ]);
  });

  it("answers the sample schema from the fact sheet, in schema order", () => {
    expect(findFieldValues(sampleSources, sampleSchema)).toEqual([
      {
        name: "company_name",
        found: { value: "Northwind Analytics SAS", source: "fact-sheet", start: 48, end: 71 },
      },
      { name: "ceo", found: { value: "Amélie Durand", source: "fact-sheet", start: 91, end: 104 } },
      { name: "headquarters", found: { value: "Lyon, France", source: "fact-sheet", start: 121, end: 133 } },
      { name: "employee_count", found: { value: "240", source: "fact-sheet", start: 147, end: 150 } },
    ]);
  });

  it("German and Japanese labels", () => {
    const sources = [
      { id: "de", text: "Rechnungsnummer: RE-2024-17\nFälligkeit: 30.04.2024" },
      { id: "ja", text: "請求書番号：JP-0099\n支払期限：2024年4月30日" },
    ];
    expect(
      values(sources, {
        rechnungsnummer: "Nummer der Rechnung",
        falligkeit: "Fälligkeitsdatum",
        支払期限: "期限",
      }),
    ).toEqual({ rechnungsnummer: "RE-2024-17", falligkeit: "30.04.2024", 支払期限: "2024年4月30日" });
  });

  it("the earlier of two equally good labels wins; sources in request order", () => {
    const sources = [
      { id: "first", text: "Owner: Kim" },
      { id: "second", text: "Owner: Lee" },
    ];
    expect(findFieldValues(sources, { owner: "owner" })[0]?.found?.source).toBe("first");
  });

  it("every value is its source's text at its offsets", () => {
    const alphabet = [..."ab Cd 12 : = — | \n is , . ** total date 東京 ä"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }).map((chars) => chars.join(""));
    const field = fc.constantFrom("total", "date", "ab", "cd_total", "東京");
    fc.assert(
      fc.property(text, field, (sample, name) => {
        const sources = [{ id: "s", text: sample }];
        for (const { found } of findFieldValues(sources, { [name]: "the total date" })) {
          if (found !== null) expect(sample.slice(found.start, found.end)).toBe(found.value);
        }
      }),
    );
  });
});
