import { describe, expect, it } from "vitest";
import { wordEnd } from "./word-end.js";

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
