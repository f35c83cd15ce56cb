import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { readableText } from "./scraped-text.js";

// Text as scrapers write it at its worst for the reader: every kind of cleaning at every character, and long
// runs of spaces that each cleaning looks over.
const families: [string, (count: number) => string][] = [
  [
    "tokeniser spaces before every mark and clitic",
    (count) => "word , ( word ) 12 % town 's do n't [ x ] ".repeat(count),
  ],
  ["long space runs before a comma", (count) => `a${" ".repeat(500)}, `.repeat(count)],
  ["long space runs after an opening bracket", (count) => `(${" ".repeat(500)}x `.repeat(count)],
  [
    "hyphens broken across lines, with spaces",
    (count) => `passen-${" ".repeat(8)}\n${" ".repeat(8)}gers `.repeat(count),
  ],
  ["hyphens followed by long space runs and no break", (count) => `a-${" ".repeat(500)}b `.repeat(count)],
  ["long space runs between words", (count) => `a${" ".repeat(500)}b `.repeat(count)],
  ["one space run as long as the text", (count) => `a${" ".repeat(500 * count)}b`],
  ["ligatures, invisible and no-break characters", (count) => "ﬁ\u00ad\u00a0ﬄ\u200b\u2009".repeat(count)],
];

// A no-break space first, so that every text is read (one with nothing to clean is passed over in one scan).
function stepsPerChar(body: string): number {
  const text = `\u00a0${body}`;
  const counter: StepCounter = { steps: 0 };
  expect(readableText(text, counter)).not.toBeNull();
  return counter.steps / text.length;
}

describe("readableText: linear in the source (counted, not timed)", () => {
  it.each(families)("%s: steps per character stay flat as the text doubles from 1× to 32×", (_, make) => {
    const base = stepsPerChar(make(20));
    for (const scale of [2, 4, 8, 16, 32]) expect(stepsPerChar(make(20 * scale))).toBeLessThan(2 * base + 1);
    expect(base).toBeLessThan(40);
  });

  it("stays within 40 steps per character on generated scraped text", () => {
    const piece = fc.constantFrom(
      " ",
      "  ",
      "\t",
      "\n",
      "-",
      ",",
      ".",
      "(",
      ")",
      "[",
      "$",
      "%",
      "'s",
      "n't",
      "a",
      "Z",
      "7",
      "ﬁ",
      "\u00ad",
      "\u00a0",
    );
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 400 }), (pieces) => {
        const text = pieces.join("").repeat(20);
        expect(stepsPerChar(text)).toBeLessThan(40);
      }),
      { seed: 3434, numRuns: 300 },
    );
  });
});
