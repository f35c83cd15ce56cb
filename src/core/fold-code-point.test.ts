import { describe, expect, it } from "vitest";
import { foldCodePoint } from "./fold-code-point.js";

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
