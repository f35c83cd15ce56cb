// A clause's terms as `clauseTerms` lists them: each distinct term once, in the order its words first come, and
// for any clause read after others with the same lexicon exactly what a fresh lexicon lists (the terms already
// met are told apart per reading, never across readings). Clauses are written for these tests.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forEachWord } from "../../text/index.js";
import type { Clause } from "../answer-claims.js";
import { contentTerm, Lexicon } from "../support.js";
import { clauseTerms } from "./clause-terms.js";
import type { QuestionTerms } from "./types.js";

const NO_QUESTION: QuestionTerms = {
  words: new Set(),
  terms: new Set(),
  numbers: new Set(),
  dates: new Set(),
};

const clauseOf = (text: string): Clause => ({ range: [0, text.length], text, masked: text, markers: [] });

// What a clause's terms name, in order: ids are per lexicon, their terms are not.
function termsOf(text: string, lexicon: Lexicon): string[] {
  const read = clauseTerms(clauseOf(text), NO_QUESTION, lexicon, true);
  return read.terms.map((id) => lexicon.terms[id] as string);
}

describe("clauseTerms", () => {
  it("lists a term repeated in a clause once, and again in the next clause that holds it", () => {
    const lexicon = new Lexicon();
    const first = termsOf("东京的会社在东京发表了新的产品", lexicon);
    expect(first.filter((term) => term === "东京")).toHaveLength(1);
    expect(termsOf("东京的市场很大", lexicon)).toContain("东京");
    const [bridge, opened, closed] = ["bridge", "opened", "closed"].map(contentTerm);
    expect(termsOf("the bridge opened in 1927 and the bridge closed in 1927", lexicon)).toEqual([
      bridge,
      opened,
      closed,
      "#1927",
    ]);
    expect(termsOf("bridge 1927", lexicon)).toEqual([bridge, "#1927"]);
  });

  it("lists each clause's terms as a fresh lexicon does, whatever was read before (fixed seed)", () => {
    const character = fc.constantFrom(
      ..."东京会社市场発表の製品は大阪と名古屋でを販売した、。 Bridge open 1927 March 4, 2019 X-12",
    );
    const clause = fc.array(character, { maxLength: 40 }).map((characters) => characters.join(""));
    fc.assert(
      fc.property(fc.array(clause, { minLength: 1, maxLength: 8 }), (clauses) => {
        const shared = new Lexicon();
        for (const text of clauses) {
          const terms = termsOf(text, shared);
          expect(terms).toEqual(termsOf(text, new Lexicon()));
          expect(new Set(terms).size).toBe(terms.length);
          // Every word's content term is listed (a clause with none lists its numbers instead).
          forEachWord(text, (word) => {
            const { term } = shared.entry(word);
            if (term >= 0) expect(terms).toContain(shared.terms[term]);
          });
        }
      }),
      { seed: 34, numRuns: 500 },
    );
  });
});
