import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdsPunctuation } from "./quotation-spacing.js";

describe("holdsPunctuation", () => {
  // The pattern it reads ASCII without, kept as the reference.
  const PUNCTUATION = /[^\p{L}\p{N}\p{M}\s]/u;
  it("answers as the pattern does", () => {
    const chars = fc.oneof(
      fc.integer({ min: 0, max: 127 }).map((code) => String.fromCharCode(code)),
      fc.constantFrom("é", "\u0301", "\u00a0", "\u2003", "٣", "—", "“", "東", "\ud835", "\udc00", "𝐀", "🙂"),
    );
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(holdsPunctuation(text)).toBe(PUNCTUATION.test(text));
      }),
      { seed: 3434, numRuns: 5000 },
    );
  });
});
