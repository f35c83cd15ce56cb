import { describe, expect, it } from "vitest";
import type { Range } from "../types.js";
import { type LineNumbers, numbersOnLines } from "./lines.js";

const TEXT = "Line one has 1 and 2.\nLine two has 3.\nLine three has 4,000.\n5";

describe("numbersOnLines", () => {
  it.each([
    { name: "first line", range: [0, 8] as Range, keys: ["1", "2"] },
    { name: "a quote inside the second line", range: [27, 30] as Range, keys: ["3"] },
    { name: "a quote spanning two lines", range: [30, 45] as Range, keys: ["3", "4000"] },
    { name: "a quote ending at a line break", range: [22, 37] as Range, keys: ["3"] },
    { name: "last line without a newline", range: [60, 61] as Range, keys: ["5"] },
    { name: "an empty range at a line start", range: [22, 22] as Range, keys: ["3"] },
  ])("$name", ({ range, keys }) => {
    expect([...numbersOnLines(TEXT, range, new Map())]).toEqual(keys);
  });

  it("reads each line once per cache", () => {
    const cache: LineNumbers = new Map();
    const first = numbersOnLines(TEXT, [27, 30], cache);
    expect(numbersOnLines(TEXT, [22, 26], cache)).toBe(first);
    expect(cache).toEqual(new Map([[22, new Set(["3"])]]));
  });
});
