import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldWord, splitWords } from "./words.js";

describe("splitWords", () => {
  it.each([
    {
      name: "English words, numbers with decimal points and thousands separators",
      text: "Revenue was $1,200.50 (up 4.2%).",
      words: ["revenue", "was", "1,200.50", "up", "4.2"],
    },
    {
      name: "apostrophes stay inside a word",
      text: "Acme's CEO doesn't",
      words: ["acme's", "ceo", "doesn't"],
    },
    { name: "a hyphen splits", text: "INV-0042", words: ["inv", "0042"] },
    { name: "letters and digits together", text: "Q3 2024", words: ["q3", "2024"] },
    { name: "German: umlauts and ß fold", text: "Größe Über Straße", words: ["grosse", "uber", "strasse"] },
    { name: "full-width forms fold", text: "Ｑ３ ＡＢＣ", words: ["q3", "abc"] },
    { name: "French accents fold", text: "Amélie Durand, Québec", words: ["amelie", "durand", "quebec"] },
    { name: "Greek and Cyrillic", text: "Ελλάδα Москва", words: ["ελλαδα", "москва"] },
    {
      name: "Japanese: Han and Katakana runs become overlapping pairs, hiragana words stay whole",
      text: "従業員数は350人です。",
      words: ["従業", "業員", "員数", "は", "350", "人", "て\u3099す"],
    },
    { name: "no words", text: " — … !? ", words: [] },
  ])("$name", ({ text, words }) => {
    expect(splitWords(text).map((word) => word.word)).toEqual(words);
  });

  it("reports offsets into the original text", () => {
    expect(splitWords("  Größe: 12,5 m")).toEqual([
      { word: "grosse", start: 2, end: 7 },
      { word: "12,5", start: 9, end: 13 },
      { word: "m", start: 14, end: 15 },
    ]);
  });

  it("offsets slice back to the word before folding, in any script", () => {
    const alphabet = [..."abcXYZ09 äöüß éè 東京都 サクラ は の 、。.,'-|\n"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (sample) => {
        for (const word of splitWords(sample)) {
          expect(word.end).toBeGreaterThan(word.start);
          expect(foldWord(sample.slice(word.start, word.end))).toBe(word.word);
        }
      }),
    );
  });
});

describe("foldWord", () => {
  it.each([
    { name: "case", word: "REVENUE", folded: "revenue" },
    { name: "diacritics", word: "Köln", folded: "koln" },
    { name: "sharp s", word: "Fuß", folded: "fuss" },
    { name: "capital sharp s", word: "FUẞ", folded: "fuss" },
    { name: "typographic apostrophe", word: "Acme’s", folded: "acme's" },
    { name: "ligature", word: "ﬁnance", folded: "finance" },
  ])("$name", ({ word, folded }) => {
    expect(foldWord(word)).toBe(folded);
  });
});
