import { describe, expect, it } from "vitest";
import { parseTableLayouts } from "./markdown-tables.js";
import { TableNumbers } from "./table-numbers.js";

const TEXT = [
  "Prose 3 before.",
  "| Rank 1 | 2019 | 2018 |",
  "|---|---|---|",
  "| 3 | $  1,452.4 | (182,601) |",
  "| Other | 2.70% | 3 — 3 |",
  "| x | 7 | 8 | 9 |",
  "After 3.",
].join("\n");

describe("TableNumbers", () => {
  const [table] = parseTableLayouts(TEXT);
  if (table === undefined) throw new Error("no table");
  const numbers = new TableNumbers(TEXT, table);

  it.each([
    { name: "a label cell", row: 0, column: 0, keys: ["3"] },
    { name: "currency with spaces", row: 0, column: 1, keys: ["1452.4"] },
    { name: "parentheses", row: 0, column: 2, keys: ["182601"] },
    { name: "percent with a trailing zero", row: 1, column: 1, keys: ["2.7"] },
    { name: "two numbers", row: 1, column: 2, keys: ["3", "3"] },
    { name: "no number", row: 1, column: 0, keys: [] },
    { name: "a cell past the header is not read", row: 2, column: 3, keys: [] },
    { name: "a row past the body", row: 3, column: 0, keys: [] },
  ])("$name", ({ row, column, keys }) => {
    expect(numbers.keysAt(row, column)).toEqual(keys);
  });

  it.each([
    { row: 0, column: 1, key: "1452.4", holds: true },
    { row: 0, column: 1, key: "1,452.4", holds: false },
    { row: 0, column: 2, key: "1452.4", holds: false },
  ])("the cell ($row, $column) holds $key: $holds", ({ row, column, key, holds }) => {
    expect(numbers.keysAt(row, column).includes(key)).toBe(holds);
  });
});
