import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { numberKey } from "./number-key.js";
import { findNumberSpans, findNumbers, nextNumberStart, numberEnd } from "./scan.js";

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

  it.each([
    { name: "first number", text: "ab 12 cd", from: 0, to: 8, start: 3, end: 5 },
    { name: "what comes before `from` counts", text: "Q3 and 5", from: 1, to: 8, start: 7, end: 8 },
    { name: "none in range", text: "ab 12 cd", from: 0, to: 3, start: -1, end: -1 },
    { name: "a number cut at `to`", text: "1,234.5", from: 0, to: 3, start: 0, end: 1 },
    { name: "a decimal cut at `to`", text: "12.5", from: 0, to: 3, start: 0, end: 2 },
  ])("nextNumberStart and numberEnd: $name", ({ text, from, to, start, end }) => {
    const found = nextNumberStart(text, from, to);
    expect([found, found < 0 ? -1 : numberEnd(text, found, to)]).toEqual([start, end]);
  });

  // The contract's definition as one regular expression: slow, but plainly the rule. The scanner must agree.
  const NAIVE = /(?<![\p{L}\p{M}\p{N}]|\p{N}\.)(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?/gu;

  it("agrees with the naive regular expression", () => {
    const unit = fc.constantFrom(..."0123456789,,..  aZ$-%(é٣²", "\u0301", "𝑥", "😀");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        const naive = [...text.matchAll(NAIVE)].map((match) => ({
          key: numberKey(match[0]),
          start: match.index,
          end: match.index + match[0].length,
        }));
        expect(findNumbers(text)).toEqual(naive);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("findNumberSpans", () => {
  it("holds the numbers findNumbers finds, in order, keys read from the text", () => {
    const unit = fc.constantFrom(..."0123456789,,..  aZ$-%(é٣²", "𝑥");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 60 }), (text) => {
        const spans = findNumberSpans(text);
        expect(spans.length).toBe(findNumbers(text).length);
        expect(spans.toArray()).toEqual(findNumbers(text));
      }),
      { numRuns: 500 },
    );
  });

  it("copies its first numbers into a list of its own, which grows without changing the original", () => {
    const spans = findNumberSpans("1 22 333 4,444");
    const copy = spans.copyFirst(2);
    copy.add(5, 7);
    expect(copy.toArray().map((number) => number.key)).toEqual(["1", "22", "33"]);
    expect(spans.toArray().map((number) => number.key)).toEqual(["1", "22", "333", "4444"]);
  });
});
