import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withoutScorelines, writesScoreline } from "./scorelines.js";

// The pattern of a scoreline and the readers as they were with no look for a digit beside a dash first, kept
// here as the reference: the cheap look only skips texts the pattern cannot match.
const NUMBER_PAIR = /(?<![\p{L}\p{N}.,/:\-–])(\d{1,2}) ?[-–] ?(\d{1,2})(?![\p{L}\p{N}/:\-–]|[.,]\p{N})/gu;
const referenceWithout = (text: string): string =>
  text.replace(NUMBER_PAIR, (pair, first: string, second: string) =>
    Number(first) >= Number(second) ? " ".repeat(pair.length) : pair,
  );
const referenceWrites = (text: string): boolean =>
  [...text.matchAll(NUMBER_PAIR)].some(([, first, second]) => Number(first) >= Number(second));

describe("scorelines", () => {
  it("blanks a pair written high to low and keeps a range", () => {
    expect(withoutScorelines("They won 4-1 in 3 – 5 days")).toBe("They won     in 3 – 5 days");
    expect(writesScoreline("drew 2 – 2")).toBe(true);
    expect(writesScoreline("the I-90 and 3-5 days")).toBe(false);
  });

  it("reads as the pattern alone does", () => {
    const PARTS = ["4", "12", "1", "-", "–", " ", "a", ".", ",", "/", ":", "I", "٣", "2023"];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 24 }), (parts) => {
        const text = parts.join("");
        expect(withoutScorelines(text)).toBe(referenceWithout(text));
        expect(writesScoreline(text)).toBe(referenceWrites(text));
      }),
      { seed: 3434, numRuns: 5000 },
    );
  });
});
