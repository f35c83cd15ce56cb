import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextNumberStart, numberEnd, numberKey, smallWholeNumber } from "../../numbers/index.js";
import type { Clause } from "../answer-claims.js";
import { codeBefore, forEachNumberKey, Lexicon, numberTerm } from "../support.js";
import { clauseTerms } from "./clause-terms.js";
import type { QuestionTerms } from "./types.js";

// A clause of numbers only is looked up by its numbers' terms; a whole number below 2^30 by its value.
const PARTS = [
  "0",
  "7",
  "12",
  "1,600",
  "1,000,000",
  "999999999",
  "1000000000",
  "0012",
  "2.50",
  "I-",
  "US-",
  "-",
  " ",
  ", ",
  "%",
];
const texts = fc.array(fc.constantFrom(...PARTS), { maxLength: 20 }).map((parts) => parts.join(""));

// The reading it replaces (a key string per number), kept as the reference.
function referenceTerms(text: string, question: QuestionTerms, lexicon: Lexicon) {
  const seen = new Set<number>();
  const found: { term: string; counted: boolean; word: string; start: number }[] = [];
  forEachNumberKey(text, (key, start, end) => {
    const code = codeBefore(text, start);
    const id = code === null ? lexicon.numberId(key) : lexicon.id(numberTerm(key, code));
    if (seen.has(id)) return;
    seen.add(id);
    const from = code === null ? start : start - code.length - 1;
    found.push({
      term: lexicon.terms[id] as string,
      counted: !question.numbers.has(key),
      word: text.slice(from, end),
      start: from,
    });
  });
  return found;
}

const question = (numbers: string[]): QuestionTerms => ({
  words: new Set(),
  terms: new Set(),
  numbers: new Set(numbers),
  dates: new Set(),
});

describe("a clause of numbers only", () => {
  it("codeBefore: the letters the pattern reads before a hyphen", () => {
    const LETTER = /\p{L}/u;
    const reference = (text: string, start: number): string | null => {
      if (start < 2 || text[start - 1] !== "-") return null;
      let from = start - 1;
      while (from > 0 && start - 1 - from < 5 && LETTER.test(text[from - 1] as string)) from--;
      const letters = start - 1 - from;
      return letters === 0 || letters > 4 ? null : text.slice(from, start - 1).toLowerCase();
    };
    const parts = fc.constantFrom("a", "Z", "é", "Ω", "\ud835", "\udc00", "東", "1", " ", "-", "_", "@", "[");
    fc.assert(
      fc.property(fc.array(parts, { maxLength: 10 }), (chars) => {
        const text = `${chars.join("")}7`;
        expect(codeBefore(text, text.length - 1)).toBe(reference(text, text.length - 1));
      }),
      { seed: 3434, numRuns: 3000 },
    );
  });

  it("smallWholeNumber: a number's value when its key is that value's digits, or -1", () => {
    const chars = fc.constantFrom("0", "1", "5", "9", ",", ".", " ", "a");
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 16 }), (parts) => {
        const text = parts.join("");
        for (let start = nextNumberStart(text, 0); start >= 0; ) {
          const end = numberEnd(text, start);
          const key = numberKey(text, start, end);
          const value = smallWholeNumber(text, start, end);
          if (value >= 0) expect(String(value)).toBe(key);
          else expect(/^[0-9]{1,9}$/.test(key) && !text.slice(start, end).includes(".")).toBe(false);
          start = nextNumberStart(text, end);
        }
      }),
      { seed: 3434, numRuns: 3000 },
    );
  });

  it("reads the terms the key-per-number reading does", () => {
    fc.assert(
      fc.property(texts, fc.subarray(["7", "12", "1600", "1000000", "2.5"]), (text, asked) => {
        const lexicon = new Lexicon();
        const read = clauseTerms({ masked: text } as Clause, question(asked), lexicon, true);
        const got = read.terms.map((id, index) => ({
          term: lexicon.terms[id] as string,
          counted: read.counted[index],
          word: read.words[index],
          start: read.starts[index],
        }));
        expect(got).toEqual(referenceTerms(text, question(asked), new Lexicon()));
      }),
      { seed: 3434, numRuns: 2000 },
    );
  });
});
