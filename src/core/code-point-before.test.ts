import { describe, expect, it } from "vitest";
import { codePointBefore } from "./code-point-before.js";

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
