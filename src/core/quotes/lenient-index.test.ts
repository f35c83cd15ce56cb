import { describe, expect, it } from "vitest";
import { buildLenientIndex, type LenientIndex } from "./lenient-index.js";

describe("buildLenientIndex", () => {
  it.each<{ name: string; text: string; expected: LenientIndex }>([
    {
      name: "an empty text",
      text: "",
      expected: {
        ids: new Int32Array(0),
        starts: new Int32Array(0),
        ends: new Int32Array(0),
        idByKey: new Map(),
      },
    },
    {
      name: "repeated keys share one id, numbered in order of first use",
      text: "The cat, the CAT.",
      expected: {
        ids: Int32Array.from([0, 1, 0, 1]),
        starts: Int32Array.from([0, 4, 9, 13]),
        ends: Int32Array.from([3, 7, 12, 16]),
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
