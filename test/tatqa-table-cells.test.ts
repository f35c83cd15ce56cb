// Real financial tables from TAT-QA (CC BY 4.0; see test/fixtures/tatqa-table-cells.md): each gold cell,
// claimed for its row and column, must pass `check_numbers: "row"`; the same row's other columns and the
// same column's other rows, claimed for it, must be dropped.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkNumbers } from "../src/core/claims/verify-claims.js";
import { findNumbers } from "../src/core/numbers/scan.js";
import { parseMarkdownTables } from "../src/core/tables/markdown-tables.js";
import type { Range } from "../src/core/types.js";

interface CellLine {
  id: string;
  table_markdown: string;
  row_label: string;
  column: string;
  value: string;
}

const cells = readFileSync(new URL("./fixtures/tatqa-table-cells.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as CellLine);

const claimFor = (cell: CellLine, value: string) => `The ${cell.row_label} for ${cell.column} was ${value}.`;

function judge(cell: CellLine) {
  const source = { id: cell.id, text: cell.table_markdown };
  const [table] = parseMarkdownTables(source.text);
  const row = table?.rows.findIndex((each) => each[0]?.text === cell.row_label) ?? -1;
  const column = table?.header.findIndex((each) => each.text === cell.column) ?? -1;
  const cells = table?.rows[row] ?? [];
  const target = cells[column];
  if (table === undefined || target === undefined) throw new Error(`${cell.id}: cell not found`);
  const lineStart = source.text.lastIndexOf("\n", target.start) + 1;
  const lineEnd = source.text.indexOf("\n", target.start);
  const quoteRange: Range = [lineStart, lineEnd < 0 ? source.text.length : lineEnd];
  const trueKeys = new Set(findNumbers(cell.value).map((number) => number.key));
  // A negative whose numbers all equal the true cell's cannot be told apart by any number check.
  const distinct = (value: string) => {
    const keys = findNumbers(value).map((number) => number.key);
    return keys.length > 0 && !keys.every((key) => trueKeys.has(key));
  };
  const passes = (value: string) => checkNumbers(claimFor(cell, value), source, quoteRange, "row");
  return {
    kept: passes(cell.value),
    wrongRowPassed: table.rows
      .map((each) => each[column]?.text ?? "")
      .filter((value, index) => index !== row && distinct(value) && passes(value)),
    wrongColumnPassed: cells
      .map((each) => each.text)
      .filter((value, index) => index !== column && index !== 0 && distinct(value) && passes(value)),
  };
}

describe("check_numbers row on real TAT-QA tables", () => {
  it("reads the fixture", () => {
    expect(cells.length).toBe(50);
  });

  it.each(cells.map((cell) => ({ id: cell.id, cell })))("$id", ({ cell }) => {
    expect(judge(cell)).toEqual({ kept: true, wrongRowPassed: [], wrongColumnPassed: [] });
  });
});
