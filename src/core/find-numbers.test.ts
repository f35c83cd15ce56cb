import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findNumbers } from "./find-numbers.js";

const keysOf = (text: string) => findNumbers(text).map((number) => number.key);

describe("findNumbers", () => {
  it.each([
    { name: "quarter label holds none", text: "Q3", keys: [] },
    { name: "fiscal year label holds none", text: "FY2023", keys: [] },
    { name: "half-year label holds none", text: "H1 results", keys: [] },
    { name: "unit after the number", text: "5kg", keys: ["5"] },
    { name: "currency before the number", text: "$29", keys: ["29"] },
    { name: "hyphenated", text: "30-day", keys: ["30"] },
    { name: "percent", text: "12%", keys: ["12"] },
    { name: "thousands and decimals", text: "$  1,452.4", keys: ["1452.4"] },
    { name: "parentheses mean negative, ignored", text: "(182,601)", keys: ["182601"] },
    { name: "sign ignored", text: "-7.02 and +0.50", keys: ["7.02", "0.5"] },
    { name: "bad thousands group splits", text: "1,2345", keys: ["1", "2345"] },
    { name: "list of numbers", text: "1,2,3", keys: ["1", "2", "3"] },
    { name: "sentence-ending dot is not a decimal", text: "It was 2019.", keys: ["2019"] },
    { name: "one decimal part only", text: "1.2.3", keys: ["1.2"] },
    { name: "version after a letter", text: "v1.2", keys: [] },
    { name: "letter then dot then digits", text: "p.12", keys: ["12"] },
    { name: "score with an en dash", text: "2–1", keys: ["2", "1"] },
    { name: "ordinal", text: "3rd", keys: ["3"] },
    { name: "letters of other scripts", text: "é5 ж7", keys: [] },
    { name: "date", text: "September 30, 2019", keys: ["30", "2019"] },
    { name: "no digits", text: "none here", keys: [] },
  ])("$name: $text", ({ text, keys }) => {
    expect(keysOf(text)).toEqual(keys);
  });

  it("reports [start, end) offsets of the digits", () => {
    expect(findNumbers("Revenue was $1,200.50 in Q3, up 12%.")).toEqual([
      { key: "1200.5", start: 13, end: 21 },
      { key: "12", start: 32, end: 34 },
    ]);
  });

  it("every number slices to digits whose key it carries, in order", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789,. aQ$-()%") }), (text) => {
        const found = findNumbers(text);
        let previousEnd = 0;
        for (const number of found) {
          const slice = text.slice(number.start, number.end);
          expect(slice).toMatch(/^\d[\d,.]*$/);
          expect(number.start).toBeGreaterThanOrEqual(previousEnd);
          expect(keysOf(slice)).toEqual([number.key]);
          previousEnd = number.end;
        }
        expect(findNumbers(text)).toEqual(found);
      }),
    );
  });
});
