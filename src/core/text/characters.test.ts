import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CharacterClass,
  codePointAt,
  codePointBefore,
  foldCodePoint,
  hasDecimalDigit,
  isWhitespaceChar,
  isWordChar,
  splitsSurrogatePair,
  wordEnd,
} from "./characters.js";

describe("codePointAt", () => {
  it("gives what String.prototype.codePointAt gives on a flat string, at every index and past both ends", () => {
    const unit = fc.constantFrom("a", "\u00e9", "\u{1f600}", "\ud83d", "\ude00", "\u0301", " ");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 20 }), (units) => {
        const text = units.join("");
        for (let index = -1; index <= text.length + 1; index += 1) {
          expect(codePointAt(text, index)).toBe(text.codePointAt(index));
        }
      }),
    );
  });

  // Node 24's optimized String.prototype.codePointAt pairs the high surrogate that ends a sliced string
  // (13 units or more: a view of its parent) with the unit after the slice, once the caller is hot.
  it("reads the high surrogate that ends a slice as itself, however often it is called", () => {
    const parent = `${"abcdefghijkl".repeat(2)}\u{1f600}`;
    const slice = parent.slice(0, parent.length - 1);
    const seen = new Set<number | undefined>();
    for (let call = 0; call < 20_000; call += 1) seen.add(codePointAt(slice, slice.length - 1));
    expect([...seen]).toEqual([0xd83d]);
  });
});

describe("codePointBefore", () => {
  it.each<{ name: string; text: string; index: number; expected: number | undefined }>([
    { name: "the start has nothing before it", text: "ab", index: 0, expected: undefined },
    { name: "a BMP character", text: "ab", index: 1, expected: 0x61 },
    { name: "the last character", text: "ab", index: 2, expected: 0x62 },
    { name: "past the end is nothing", text: "ab", index: 3, expected: undefined },
    { name: "a surrogate pair is one code point", text: "x\u{1d400}", index: 3, expected: 0x1d400 },
    { name: "a pair at the very start", text: "\u{1f600}y", index: 2, expected: 0x1f600 },
    { name: "inside a pair, the high half alone", text: "\u{1d400}", index: 1, expected: 0xd835 },
    { name: "a lone low surrogate is itself", text: "a\udc00", index: 2, expected: 0xdc00 },
  ])("$name", ({ text, index, expected }) => {
    expect(codePointBefore(text, index)).toEqual(expected);
  });
});

describe("foldCodePoint", () => {
  it.each<{ name: string; char: string; expected: string }>([
    { name: "an ASCII capital is lower-cased", char: "Q", expected: "q" },
    { name: "an ASCII small letter stays", char: "q", expected: "q" },
    { name: "an ASCII digit stays", char: "7", expected: "7" },
    { name: "ASCII punctuation stays", char: ",", expected: "," },
    { name: "a precomposed accent is dropped", char: "é", expected: "e" },
    { name: "a capital with an accent is lower-cased and stripped", char: "É", expected: "e" },
    { name: "a lone combining mark folds to nothing", char: "\u0301", expected: "" },
    { name: "a ligature decomposes", char: "\ufb01", expected: "fi" },
    { name: "sharp s folds to ss", char: "ß", expected: "ss" },
    { name: "capital sharp s folds to ss", char: "\u1e9e", expected: "ss" },
    { name: "dotted capital I folds to i", char: "\u0130", expected: "i" },
    { name: "final sigma folds like sigma", char: "ς", expected: "σ" },
    { name: "capital sigma folds to sigma", char: "Σ", expected: "σ" },
    { name: "a fullwidth letter becomes ASCII", char: "\uff21", expected: "a" },
    { name: "a fullwidth comma becomes a comma", char: "\uff0c", expected: "," },
    { name: "a superscript digit becomes a digit", char: "²", expected: "2" },
    { name: "a vulgar fraction spells out its parts", char: "½", expected: "1\u20442" },
    { name: "a no-break space becomes a space", char: "\u00a0", expected: " " },
    { name: "j with caron loses the caron casing adds", char: "ǰ", expected: "j" },
    { name: "a mathematical bold capital becomes a small letter", char: "\u{1d400}", expected: "a" },
    { name: "a CJK ideograph stays", char: "中", expected: "中" },
    { name: "a Hangul syllable decomposes into jamo", char: "한", expected: "\u1112\u1161\u11ab" },
    { name: "an emoji stays", char: "\u{1f600}", expected: "\u{1f600}" },
  ])("$name", ({ char, expected }) => {
    expect(foldCodePoint(char.codePointAt(0) ?? 0)).toEqual(expected);
  });

  it("gives a code point and its upper and lower case the same fold across the BMP letters", () => {
    const disagreements: string[] = [];
    for (let code = 0x80; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      if (!/\p{L}/u.test(char)) continue;
      for (const variant of [char.toUpperCase(), char.toLowerCase()]) {
        const folded = Array.from(variant, (part) => foldCodePoint(part.codePointAt(0) ?? 0)).join("");
        if (folded !== foldCodePoint(code)) disagreements.push(`${char} ${variant}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});

describe("isWhitespaceChar", () => {
  it.each<{ name: string; char: string; expected: boolean }>([
    { name: "space", char: " ", expected: true },
    { name: "tab", char: "\t", expected: true },
    { name: "line feed", char: "\n", expected: true },
    { name: "carriage return", char: "\r", expected: true },
    { name: "no-break space", char: "\u00a0", expected: true },
    { name: "ideographic space", char: "\u3000", expected: true },
    { name: "line separator", char: "\u2028", expected: true },
    { name: "byte order mark", char: "\ufeff", expected: true },
    { name: "a letter", char: "a", expected: false },
    { name: "a period", char: ".", expected: false },
    { name: "zero-width space (a format character, not whitespace)", char: "\u200b", expected: false },
    { name: "unit separator", char: "\u001f", expected: false },
  ])("$name", ({ char, expected }) => {
    expect(isWhitespaceChar(char.charCodeAt(0))).toEqual(expected);
  });

  it("agrees with JavaScript's \\s on every UTF-16 code unit", () => {
    const disagreements: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isWhitespaceChar(code) !== /\s/u.test(String.fromCharCode(code))) disagreements.push(code);
    }
    expect(disagreements).toEqual([]);
  });
});

describe("isWordChar", () => {
  it.each<{ name: string; char: string | undefined; expected: boolean }>([
    { name: "an ASCII lower-case letter", char: "q", expected: true },
    { name: "an ASCII upper-case letter", char: "Q", expected: true },
    { name: "an ASCII digit", char: "7", expected: true },
    { name: "a Latin letter with a diacritic", char: "é", expected: true },
    { name: "a Greek letter", char: "λ", expected: true },
    { name: "a Cyrillic letter", char: "ж", expected: true },
    { name: "a CJK ideograph", char: "中", expected: true },
    { name: "an Arabic-Indic digit", char: "٣", expected: true },
    { name: "a vulgar fraction (a number)", char: "½", expected: true },
    { name: "a combining acute accent", char: "\u0301", expected: true },
    { name: "a Devanagari vowel sign", char: "\u093f", expected: true },
    { name: "a mathematical bold letter (astral)", char: "\u{1d400}", expected: true },
    { name: "an astral CJK ideograph", char: "\u{20000}", expected: true },
    { name: "a space", char: " ", expected: false },
    { name: "an underscore", char: "_", expected: false },
    { name: "an apostrophe", char: "'", expected: false },
    { name: "a hyphen", char: "-", expected: false },
    { name: "an em dash", char: "\u2014", expected: false },
    { name: "a dollar sign", char: "$", expected: false },
    { name: "an emoji (astral symbol)", char: "\u{1f600}", expected: false },
    { name: "nothing (outside the text)", char: undefined, expected: false },
  ])("$name", ({ char, expected }) => {
    expect(isWordChar(char?.codePointAt(0))).toEqual(expected);
  });

  it("agrees with \\p{L}, \\p{N} and \\p{M} on every ASCII code point", () => {
    for (let code = 0; code < 0x80; code++) {
      expect([code, isWordChar(code)]).toEqual([code, /[\p{L}\p{N}\p{M}]/u.test(String.fromCharCode(code))]);
    }
  });
});

describe("splitsSurrogatePair", () => {
  it.each<{ name: string; text: string; index: number; expected: boolean }>([
    { name: "between the halves of a pair", text: "a\u{1d400}b", index: 2, expected: true },
    { name: "before a pair", text: "a\u{1d400}b", index: 1, expected: false },
    { name: "after a pair", text: "a\u{1d400}b", index: 3, expected: false },
    { name: "the start of the text", text: "\u{1d400}", index: 0, expected: false },
    { name: "the end of the text", text: "\u{1d400}", index: 2, expected: false },
    { name: "between two lone high surrogates", text: "\ud835\ud835", index: 1, expected: false },
    { name: "between BMP characters", text: "ab", index: 1, expected: false },
  ])("$name", ({ text, index, expected }) => {
    expect(splitsSurrogatePair(text, index)).toEqual(expected);
  });
});

describe("wordEnd", () => {
  it.each([
    { name: "ASCII word", text: "net revenue", start: 0, end: 3 },
    { name: "letters and digits", text: "q3 revenue", start: 0, end: 2 },
    { name: "a later word", text: "net revenue", start: 4, end: 11 },
    { name: "not at a word", text: "% change", start: 0, end: 0 },
    { name: "accented letters", text: "été 5", start: 0, end: 3 },
    { name: "a combining mark", text: "cafe\u0301 x", start: 0, end: 5 },
    { name: "a letter beyond the BMP", text: "𝑥y z", start: 0, end: 3 },
    { name: "stops at a dot", text: "1.5", start: 0, end: 1 },
  ])("$name", ({ text, start, end }) => {
    expect(wordEnd(text, start)).toBe(end);
  });
});

describe("hasDecimalDigit", () => {
  const pattern = /\p{Nd}/u;

  it("answers as /\\p{Nd}/u for every code unit of the BMP alone and after a letter", () => {
    for (let code = 0; code < 0x10000; code++) {
      const character = String.fromCharCode(code);
      expect(hasDecimalDigit(character)).toBe(pattern.test(character));
      expect(hasDecimalDigit(`東${character}`)).toBe(pattern.test(`東${character}`));
    }
  });

  it("answers as /\\p{Nd}/u for random text of digits of many scripts, surrogate pairs and lone surrogates (fixed seed)", () => {
    const character = fc.constantFrom(
      ..."a7東京٣३๓３，。 ",
      "\u{1D7CE}",
      "\u{104A0}",
      "\u{1F600}",
      "\u{20000}",
      "\ud835",
      "\udfce",
      "\ud801",
    );
    fc.assert(
      fc.property(fc.array(character, { maxLength: 12 }), (characters) => {
        const text = characters.join("");
        expect(hasDecimalDigit(text)).toBe(pattern.test(text));
      }),
      { seed: 34, numRuns: 3_000 },
    );
  });
});

describe("CharacterClass", () => {
  const terminators = /[\p{Sentence_Terminal}\u2024\u2028]/u;
  const terminatorClass = new CharacterClass(/^[\p{Sentence_Terminal}\u2024\u2028]$/u);

  it("finds where text.search finds the class, from any start, in random text with surrogate pairs and lone surrogates (fixed seed)", () => {
    const character = fc.constantFrom(
      ..."a.。!？東 ‥\u2024\u2028",
      "\u{11047}",
      "\u{1F600}",
      "\ud804",
      "\udc47",
    );
    fc.assert(
      fc.property(fc.array(character, { maxLength: 12 }), fc.nat(12), (characters, from) => {
        const text = characters.join("");
        const start = Math.min(from, text.length);
        // From a start inside a pair, the pattern reads the low half alone: no character of the class.
        const found = text.slice(start).search(terminators);
        expect(terminatorClass.search(text, start)).toBe(found < 0 ? -1 : start + found);
      }),
      { seed: 34, numRuns: 3_000 },
    );
  });
});
