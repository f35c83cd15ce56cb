import { describe, expect, it } from "vitest";
import { splitsSurrogatePair } from "./splits-surrogate-pair.js";

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
