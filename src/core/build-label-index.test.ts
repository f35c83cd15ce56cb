import { describe, expect, it } from "vitest";
import { buildLabelIndex, labelKeyAt } from "./build-label-index.js";
import { parseMarkdownTables } from "./parse-markdown-tables.js";

const entriesOf = (markdown: string) =>
  [...buildLabelIndex(parseMarkdownTables(markdown)).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );

describe("labelKeyAt", () => {
  it.each([
    { name: "a word", folded: "net revenue", start: 0, key: "net" },
    { name: "a later word", folded: "net revenue", start: 4, key: "revenue" },
    { name: "letters and digits", folded: "q3 revenue", start: 0, key: "q3" },
    { name: "a symbol", folded: "% change", start: 0, key: "%" },
    { name: "a letter beyond the BMP", folded: "𝑥y z", start: 0, key: "𝑥y" },
  ])("$name", ({ folded, start, key }) => {
    expect(labelKeyAt(folded, start)).toBe(key);
  });
});

describe("buildLabelIndex", () => {
  it("indexes row labels and column labels by their first word", () => {
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
    expect(
      entriesOf("| Item | Revenue ($M) | Cost (EUR) | cost |\n|-|-|-|-|\n| Net income (loss) | 1 | 2 | 3 |"),
    ).toEqual([
      [
        "cost",
        [
          { pattern: "cost (eur)", symbolic: false, table: 0, rows: [], columns: [2] },
          { pattern: "cost", symbolic: false, table: 0, rows: [], columns: [3] },
        ],
      ],
      ["item", [{ pattern: "item", symbolic: false, table: 0, rows: [], columns: [0] }]],
      [
        "net",
        [
          { pattern: "net income (loss)", symbolic: false, table: 0, rows: [0], columns: [] },
          { pattern: "net income", symbolic: false, table: 0, rows: [0], columns: [] },
        ],
      ],
      [
        "revenue",
        [
          { pattern: "revenue ($m)", symbolic: false, table: 0, rows: [], columns: [1] },
          { pattern: "revenue", symbolic: false, table: 0, rows: [], columns: [1] },
        ],
      ],
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
