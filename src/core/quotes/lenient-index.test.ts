import { describe, expect, it } from "vitest";
import { buildLenientIndex, type LenientIndex } from "./lenient-index.js";

describe("buildLenientIndex", () => {
  it.each<{ name: string; text: string; expected: LenientIndex }>([
    { name: "an empty text", text: "", expected: { tokens: [], positionsByKey: new Map() } },
    {
      name: "repeated keys list every position in order",
      text: "The cat, the CAT.",
      expected: {
        tokens: [
          { key: "the", start: 0, end: 3 },
          { key: "cat", start: 4, end: 7 },
          { key: "the", start: 9, end: 12 },
          { key: "cat", start: 13, end: 16 },
        ],
        positionsByKey: new Map([
          ["the", [0, 2]],
          ["cat", [1, 3]],
        ]),
      },
    },
  ])("$name", ({ text, expected }) => {
    expect(buildLenientIndex(text)).toEqual(expected);
  });
});
