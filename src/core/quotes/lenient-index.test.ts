import { describe, expect, it } from "vitest";
import { buildLenientIndex, type LenientIndex } from "./lenient-index.js";

describe("buildLenientIndex", () => {
  it.each<{ name: string; text: string; expected: LenientIndex }>([
    { name: "an empty text", text: "", expected: { tokens: [], ids: new Int32Array(0), idByKey: new Map() } },
    {
      name: "repeated keys share one id, numbered in order of first use",
      text: "The cat, the CAT.",
      expected: {
        tokens: [
          { key: "the", start: 0, end: 3 },
          { key: "cat", start: 4, end: 7 },
          { key: "the", start: 9, end: 12 },
          { key: "cat", start: 13, end: 16 },
        ],
        ids: Int32Array.from([0, 1, 0, 1]),
        idByKey: new Map([
          ["the", 0],
          ["cat", 1],
        ]),
      },
    },
  ])("$name", ({ text, expected }) => {
    expect(buildLenientIndex(text)).toEqual(expected);
  });
});
