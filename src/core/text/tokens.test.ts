import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitsSurrogatePair } from "./characters.js";
import { type LenientToken, tokenizeLenient } from "./tokens.js";

/**
 * The obviously-correct reading of the rule: fold the text code point by code point, remember where each
 * folded unit came from, and let one regular expression find the tokens.
 */
function naiveTokenize(text: string): LenientToken[] {
  let folded = "";
  const starts: number[] = [];
  const ends: number[] = [];
  let position = 0;
  for (const char of text) {
    const part = char
      .normalize("NFKD")
      .toLowerCase()
      .toUpperCase()
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}/gu, "");
    if (part === "" && ends.length > 0) ends[ends.length - 1] = position + char.length;
    for (let unit = 0; unit < part.length; unit++) {
      starts.push(position);
      ends.push(position + char.length);
    }
    folded += part;
    position += char.length;
  }
  return Array.from(folded.matchAll(/(?:[\p{L}\p{N}]|(?<=\p{N})[.,](?=\p{N}))+/gu), (match) => ({
    key: match[0],
    start: starts[match.index] ?? -1,
    end: ends[match.index + match[0].length - 1] ?? -1,
  }));
}

describe("tokenizeLenient", () => {
  it.each<{ name: string; text: string; expected: LenientToken[] }>([
    { name: "nothing in, nothing out", text: "", expected: [] },
    { name: "punctuation only has no tokens", text: " ... -- !", expected: [] },
    {
      name: "words are case-folded and split on anything else",
      text: "The Panthers' defense",
      expected: [
        { key: "the", start: 0, end: 3 },
        { key: "panthers", start: 4, end: 12 },
        { key: "defense", start: 14, end: 21 },
      ],
    },
    {
      name: "a thousands separator and a decimal point stay inside a number",
      text: "$1,452.4 million",
      expected: [
        { key: "1,452.4", start: 1, end: 8 },
        { key: "million", start: 9, end: 16 },
      ],
    },
    {
      name: "a period ending a sentence after a number is not part of it",
      text: "It rose 15. Then",
      expected: [
        { key: "it", start: 0, end: 2 },
        { key: "rose", start: 3, end: 7 },
        { key: "15", start: 8, end: 10 },
        { key: "then", start: 12, end: 16 },
      ],
    },
    {
      name: "a comma and space between numbers separate them",
      text: "1, 2",
      expected: [
        { key: "1", start: 0, end: 1 },
        { key: "2", start: 3, end: 4 },
      ],
    },
    {
      name: "a period between a letter and a digit separates",
      text: "No.5 v1.5",
      expected: [
        { key: "no", start: 0, end: 2 },
        { key: "5", start: 3, end: 4 },
        { key: "v1.5", start: 5, end: 9 },
      ],
    },
    {
      name: "two separators in a row end the number",
      text: "1.,2",
      expected: [
        { key: "1", start: 0, end: 1 },
        { key: "2", start: 3, end: 4 },
      ],
    },
    {
      name: "hyphens, slashes and apostrophes separate",
      text: "30-day a/b don't",
      expected: [
        { key: "30", start: 0, end: 2 },
        { key: "day", start: 3, end: 6 },
        { key: "a", start: 7, end: 8 },
        { key: "b", start: 9, end: 10 },
        { key: "don", start: 11, end: 14 },
        { key: "t", start: 15, end: 16 },
      ],
    },
    {
      name: "precomposed diacritics are removed",
      text: "Café Zürich",
      expected: [
        { key: "cafe", start: 0, end: 4 },
        { key: "zurich", start: 5, end: 11 },
      ],
    },
    {
      name: "a decomposed diacritic stays inside the token's range",
      text: "cafe\u0301 au",
      expected: [
        { key: "cafe", start: 0, end: 5 },
        { key: "au", start: 6, end: 8 },
      ],
    },
    {
      name: "a ligature expands in the key but not in the range",
      text: "e\ufb03cient",
      expected: [{ key: "efficient", start: 0, end: 7 }],
    },
    {
      name: "sharp s folds to ss",
      text: "Straße STRASSE",
      expected: [
        { key: "strasse", start: 0, end: 6 },
        { key: "strasse", start: 7, end: 14 },
      ],
    },
    {
      name: "a dotted capital I before a token does not shift its range",
      text: "İ x",
      expected: [
        { key: "i", start: 0, end: 1 },
        { key: "x", start: 2, end: 3 },
      ],
    },
    {
      name: "fullwidth digits and comma read as one number",
      text: "\uff11\uff0c\uff10\uff10\uff10",
      expected: [{ key: "1,000", start: 0, end: 5 }],
    },
    {
      name: "an astral letter is one character of its token",
      text: "\u{1d400}b c",
      expected: [
        { key: "ab", start: 0, end: 3 },
        { key: "c", start: 4, end: 5 },
      ],
    },
    {
      name: "an emoji separates",
      text: "a\u{1f600}b",
      expected: [
        { key: "a", start: 0, end: 1 },
        { key: "b", start: 3, end: 4 },
      ],
    },
    {
      name: "Greek and Cyrillic words are tokens",
      text: "ΟΔΟΣ дом",
      expected: [
        { key: "οδοσ", start: 0, end: 4 },
        { key: "дом", start: 5, end: 8 },
      ],
    },
    {
      name: "a CJK run without spaces is one token",
      text: "東京都 に",
      expected: [
        { key: "東京都", start: 0, end: 3 },
        { key: "に", start: 4, end: 5 },
      ],
    },
    {
      name: "a vulgar fraction splits at its fraction slash, both parts inside its code point",
      text: "6½ sacks",
      expected: [
        { key: "61", start: 0, end: 2 },
        { key: "2", start: 1, end: 2 },
        { key: "sacks", start: 3, end: 8 },
      ],
    },
  ])("$name", ({ text, expected }) => {
    expect(tokenizeLenient(text)).toEqual(expected);
  });

  const pieces = [
    ..."aBz190., -'",
    "é",
    "É",
    "\u0301",
    "İ",
    "ß",
    "ẞ",
    "½",
    "\uff0c",
    "\uff0e",
    "\u{1d400}",
    "\u{1f600}",
    "٣",
    "中",
    "Σ",
    "ς",
    "\ufb01",
    "\u00a0",
  ];
  const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(""));

  // Any code point, and lone surrogates, built directly: fast-check's binary strings are slow to generate.
  const anyCodePoints = fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint)),
        fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
      ),
      { maxLength: 20 },
    )
    .map((chars) => chars.join(""));

  it("agrees with a naive fold-then-regex tokenizer", () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(tokenizeLenient(text)).toEqual(naiveTokenize(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives ranges in order, inside the text, never splitting a surrogate pair", () => {
    fc.assert(
      fc.property(fc.oneof(texts, anyCodePoints), (text) => {
        let previousStart = 0;
        for (const token of tokenizeLenient(text)) {
          expect(token.start).toBeGreaterThanOrEqual(previousStart);
          expect(token.end).toBeGreaterThan(token.start);
          expect(token.end).toBeLessThanOrEqual(text.length);
          expect([splitsSurrogatePair(text, token.start), splitsSurrogatePair(text, token.end)]).toEqual([
            false,
            false,
          ]);
          previousStart = token.start;
        }
      }),
    );
  });

  it("reads upper-, lower- and mixed-case versions of a text as the same keys", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const keys = tokenizeLenient(text).map((token) => token.key);
        expect(tokenizeLenient(text.toUpperCase()).map((token) => token.key)).toEqual(keys);
        expect(tokenizeLenient(text.toLowerCase()).map((token) => token.key)).toEqual(keys);
      }),
    );
  });
});
