import { describe, expect, it } from "vitest";
import { isWordChar } from "./is-word-char.js";

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
