import { describe, expect, it } from "vitest";
import { parseTableLayouts } from "../tables/index.js";
import { withRulesOff } from "../wording/index.js";
import { buildLabelIndex, labelKey } from "./label-index.js";

const entriesOf = (markdown: string) =>
  [...buildLabelIndex(parseTableLayouts(markdown)).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );

describe("labelKey", () => {
  it.each([
    { name: "one word", pattern: "revenue", key: "revenue" },
    { name: "two words", pattern: "net revenue", key: "net revenue" },
    { name: "through the second word of three", pattern: "total net revenue", key: "total net" },
    { name: "symbols between the words are kept", pattern: "revenue ($m)", key: "revenue ($m" },
    { name: "a trailing symbol", pattern: "revenue:", key: "revenue" },
    { name: "letters and digits", pattern: "q3 2019", key: "q3 2019" },
    { name: "a symbol first", pattern: "% change", key: "%" },
    { name: "a letter beyond the BMP", pattern: "𝑥y", key: "𝑥y" },
  ])("$name", ({ pattern, key }) => {
    expect(labelKey(pattern)).toBe(key);
  });
});

describe("buildLabelIndex", () => {
  it("indexes one-word labels by their word", () => {
    expect(entriesOf("| Quarter | Revenue |\n| --- | --- |\n| Q3 | 120 |\n| Q4 | 130 |")).toEqual([
      ["q3", [{ pattern: "q3", symbolic: false, table: 0, rows: [0], columns: [] }]],
      ["q4", [{ pattern: "q4", symbolic: false, table: 0, rows: [1], columns: [] }]],
      ["quarter", [{ pattern: "quarter", symbolic: false, table: 0, rows: [], columns: [0] }]],
      ["revenue", [{ pattern: "revenue", symbolic: false, table: 0, rows: [], columns: [1] }]],
    ]);
  });

  it("merges a label that is both a row and a column (Total), and repeated row labels", () => {
    expect(entriesOf("| | A | Total |\n|-|-|-|\n| Total | 1 | 2 |\n| X | 3 | 4 |\n| X | 5 | 6 |")).toEqual([
      ["a", [{ pattern: "a", symbolic: false, table: 0, rows: [], columns: [1] }]],
      ["total", [{ pattern: "total", symbolic: false, table: 0, rows: [0], columns: [2] }]],
      ["x", [{ pattern: "x", symbolic: false, table: 0, rows: [1, 2], columns: [] }]],
    ]);
  });

  it("adds a label without its trailing parenthetical, unless another label is exactly that text", () => {
    // R47's written variants (`cost ( eur )`) are its registry examples' concern.
    expect(
      withRulesOff(["R47"], () =>
        entriesOf(
          "| Item | Revenue ($M) | Cost (EUR) | cost |\n|-|-|-|-|\n| Net income (loss) | 1 | 2 | 3 |",
        ),
      ),
    ).toEqual([
      ["cost", [{ pattern: "cost", symbolic: false, table: 0, rows: [], columns: [3] }]],
      ["cost (eur", [{ pattern: "cost (eur)", symbolic: false, table: 0, rows: [], columns: [2] }]],
      ["item", [{ pattern: "item", symbolic: false, table: 0, rows: [], columns: [0] }]],
      [
        "net income",
        [
          { pattern: "net income (loss)", symbolic: false, table: 0, rows: [0], columns: [] },
          { pattern: "net income", symbolic: false, table: 0, rows: [0], columns: [] },
        ],
      ],
      ["revenue", [{ pattern: "revenue", symbolic: false, table: 0, rows: [], columns: [1] }]],
      ["revenue ($m", [{ pattern: "revenue ($m)", symbolic: false, table: 0, rows: [], columns: [1] }]],
    ]);
  });

  it("marks symbol-only labels, skips empty ones, and keeps tables apart", () => {
    expect(entriesOf("|  | $ | % |\n|-|-|-|\n| A | 1 | 2 |\n\n| A |\n|-|\n| 7 |")).toEqual([
      ["$", [{ pattern: "$", symbolic: true, table: 0, rows: [], columns: [1] }]],
      ["%", [{ pattern: "%", symbolic: true, table: 0, rows: [], columns: [2] }]],
      ["7", [{ pattern: "7", symbolic: false, table: 1, rows: [0], columns: [] }]],
      [
        "a",
        [
          { pattern: "a", symbolic: false, table: 0, rows: [0], columns: [] },
          { pattern: "a", symbolic: false, table: 1, rows: [], columns: [0] },
        ],
      ],
    ]);
  });
});
