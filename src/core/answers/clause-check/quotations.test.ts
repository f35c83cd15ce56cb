import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trimTrailing } from "../../../util.js";
import { type AnswerClaim, type Clause, tidy } from "../answer-claims.js";
import { quotationsOf } from "./quotations.js";

describe("quotationsOf", () => {
  // The reading it replaces (both patterns run on every clause by `matchAll`), kept as the reference.
  const reference = (masked: string): string[] => {
    const found: string[] = [];
    for (const pattern of [/"([^"\n]{1,2000})"/g, /“([^”\n]{1,2000})”/g])
      for (const match of masked.matchAll(pattern)) {
        const quotation = trimTrailing(tidy(match[1] as string), ",.;:!?");
        if (/[\p{L}\p{N}]/u.test(quotation)) found.push(quotation);
      }
    return found;
  };
  const claim = { blockQuote: false, clauses: [] } as unknown as AnswerClaim;
  const PARTS = ['"', "“", "”", "a", "b c", " ", "  ", ",", ".", "\n", "7"];
  it("finds the quotations, in order, that matching both patterns finds", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 24 }), (parts) => {
        const masked = parts.join("");
        const clause = { masked } as Clause;
        expect(quotationsOf(clause, claim)).toEqual(reference(masked));
        // Asked again: nothing is left over from the call before.
        expect(quotationsOf(clause, claim)).toEqual(reference(masked));
      }),
      { seed: 3434, numRuns: 5000 },
    );
  });
  it("reads a quotation of 2,000 characters and no longer", () => {
    const long = "a".repeat(2000);
    expect(quotationsOf({ masked: `says "${long}" and` } as Clause, claim)).toEqual([long]);
    expect(quotationsOf({ masked: `says "${long}a" and` } as Clause, claim)).toEqual([]);
  });
});
