import { describe, expect, it } from "vitest";
import type { CandidateField, Source } from "../types.js";
import { verifyFields } from "./verify-fields.js";

const sources: Source[] = [
  { id: "invoice", text: "Invoice number: INV-0042\nTotal due: $1,200.00\nDue date: 2024-07-01" },
  { id: "letter", text: "Dear customer, your order INV-0042 ships on Monday." },
];

describe("verifyFields", () => {
  it.each<{ name: string; fields: Record<string, CandidateField | null>; expected: object }>([
    {
      name: "a value found in its named source",
      fields: { number: { value: "INV-0042", source: "letter" } },
      expected: {
        fields: { number: { value: "INV-0042", source: "letter", range: [26, 34], grounded: true } },
        coverage: 1,
      },
    },
    {
      name: "a value not in its named source is looked up in every source in request order",
      fields: { due: { value: "2024-07-01", source: "letter" } },
      expected: {
        fields: { due: { value: "2024-07-01", source: "invoice", range: [56, 66], grounded: true } },
        coverage: 1,
      },
    },
    {
      name: "an unknown source id falls back to every source",
      fields: { total: { value: "$1,200.00", source: "nope" } },
      expected: {
        fields: { total: { value: "$1,200.00", source: "invoice", range: [36, 45], grounded: true } },
        coverage: 1,
      },
    },
    {
      name: "missing, null, empty and unmatched values are not_found",
      fields: { a: {}, b: { value: null }, c: { value: "" }, d: { value: "INV-9999" }, e: null },
      expected: {
        fields: {
          a: { value: null, grounded: false, reason: "not_found" },
          b: { value: null, grounded: false, reason: "not_found" },
          c: { value: null, grounded: false, reason: "not_found" },
          d: { value: null, grounded: false, reason: "not_found" },
          e: { value: null, grounded: false, reason: "not_found" },
        },
        coverage: 0,
      },
    },
    {
      name: "coverage is grounded over total fields",
      fields: { number: { value: "INV-0042" }, missing: { value: "nothing like it" } },
      expected: {
        fields: {
          number: { value: "INV-0042", source: "invoice", range: [16, 24], grounded: true },
          missing: { value: null, grounded: false, reason: "not_found" },
        },
        coverage: 0.5,
      },
    },
    { name: "no fields give coverage 0", fields: {}, expected: { fields: {}, coverage: 0 } },
  ])("$name", ({ fields, expected }) => {
    expect(verifyFields(sources, fields)).toEqual(expected);
  });

  it("keeps a field named __proto__ as an ordinary key", () => {
    const fields = JSON.parse('{"__proto__": {"value": "INV-0042"}}') as Record<string, CandidateField>;
    const result = verifyFields(sources, fields);
    expect(Object.keys(result.fields)).toEqual(["__proto__"]);
    const roundTripped = JSON.parse(JSON.stringify(result)) as {
      fields: Record<string, { grounded: boolean }>;
    };
    expect(Object.getOwnPropertyDescriptor(roundTripped.fields, "__proto__")?.value.grounded).toBe(true);
  });

  it("reports the source's own spelling in lenient mode", () => {
    const result = verifyFields(sources, { number: { value: "inv 0042" } }, { mode: "lenient" });
    expect(result.fields.number).toEqual({
      value: "INV-0042",
      source: "invoice",
      range: [16, 24],
      grounded: true,
    });
  });
});
