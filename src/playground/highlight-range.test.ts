import { describe, expect, it } from "vitest";
import type { Range } from "../core/types.js";
import { highlightRange } from "./highlight-range.js";

describe("highlightRange", () => {
  it.each<{ name: string; text: string; range: Range; expected: ReturnType<typeof highlightRange> }>([
    {
      name: "a range in the middle",
      text: "Revenue rose 12% in Q3.",
      range: [8, 16],
      expected: { before: "Revenue ", highlighted: "rose 12%", after: " in Q3." },
    },
    {
      name: "the whole text",
      text: "abc",
      range: [0, 3],
      expected: { before: "", highlighted: "abc", after: "" },
    },
    {
      name: "an empty range at the end",
      text: "abc",
      range: [3, 3],
      expected: { before: "abc", highlighted: "", after: "" },
    },
    {
      name: "UTF-16 code units, not code points (the emoji is two units)",
      text: "a😀b café",
      range: [1, 4],
      expected: { before: "a", highlighted: "😀b", after: " café" },
    },
    { name: "end past the text", text: "abc", range: [1, 4], expected: null },
    { name: "negative start", text: "abc", range: [-1, 2], expected: null },
    { name: "end before start", text: "abc", range: [2, 1], expected: null },
    { name: "fractional offsets", text: "abc", range: [0.5, 2], expected: null },
  ])("$name", ({ text, range, expected }) => {
    expect(highlightRange(text, range)).toEqual(expected);
  });

  it("splits at the range even when the quote also occurs earlier", () => {
    // The second "the cat" is the cited one; a search would find the first.
    const text = "the cat sat; later the cat slept";
    const parts = highlightRange(text, [19, 26]);
    expect(parts).toEqual({ before: "the cat sat; later ", highlighted: "the cat", after: " slept" });
  });

  it("reassembles the original text for every range of a planted span", () => {
    const text = "α β γ — 42 units, then 4.2 units.";
    for (let start = 0; start <= text.length; start++) {
      for (let end = start; end <= text.length; end++) {
        const parts = highlightRange(text, [start, end]);
        expect(parts).not.toBeNull();
        if (parts === null) continue;
        expect(parts.before + parts.highlighted + parts.after).toBe(text);
        expect(parts.highlighted).toBe(text.slice(start, end));
      }
    }
  });
});
