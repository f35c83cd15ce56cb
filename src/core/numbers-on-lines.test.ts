import { describe, expect, it } from "vitest";
import { findNumbers } from "./find-numbers.js";
import { numbersOnLines } from "./numbers-on-lines.js";
import type { Range } from "./types.js";

const TEXT = "Line one has 1 and 2.\nLine two has 3.\nLine three has 4,000.\n5";

const keysFor = (range: Range) => [...numbersOnLines(TEXT, findNumbers(TEXT), range)];

describe("numbersOnLines", () => {
  it.each([
    { name: "first line", range: [0, 8] as Range, keys: ["1", "2"] },
    { name: "a quote inside the second line", range: [27, 30] as Range, keys: ["3"] },
    { name: "a quote spanning two lines", range: [30, 45] as Range, keys: ["3", "4000"] },
    { name: "last line without a newline", range: [60, 61] as Range, keys: ["5"] },
    { name: "an empty range at a line start", range: [22, 22] as Range, keys: ["3"] },
  ])("$name", ({ range, keys }) => {
    expect(keysFor(range)).toEqual(keys);
  });
});
