import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tidy } from "./answer-claims.js";

// `tidy` reads by hand what two global replacements and a trim did: the same text for any input.
const byPatterns = (text: string): string =>
  text
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, " ")
    .replace(/ (?=[.,;:!?)\]])/g, "")
    .trim();

describe("tidy", () => {
  it("gives what the two replacements and a trim give", () => {
    const char = fc.constantFrom(
      " ",
      " ",
      "\t",
      "\u00a0",
      "\n",
      ".",
      ",",
      ";",
      ":",
      "!",
      "?",
      ")",
      "]",
      "(",
      "a",
      "B",
      "é",
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join("");
        expect(tidy(text)).toBe(byPatterns(text));
      }),
      { seed: 34, numRuns: 5000 },
    );
  });

  it("makes each run of spaces one, drops it before punctuation, and trims", () => {
    expect(tidy("  A \t b\u00a0c   ,  d .  ]")).toBe("A b c, d.]");
    expect(tidy('It says "a b"     .')).toBe('It says "a b".');
    expect(tidy("plain text")).toBe("plain text");
  });
});
