import { findNumbers, type LineNumbers, numbersOnLines } from "../numbers/index.js";
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { Range } from "../types.js";
import { buildLabelIndex, type LabelIndex } from "./label-index.js";
import { foldLabelText } from "./label-text.js";
import { parseMarkdownTables } from "./markdown-tables.js";
import { findNamedLabels, type LabelOccurrence } from "./named-labels.js";
import { bindClaimToTable, type TableBinding } from "./row-binding.js";
import { TableNumbers } from "./table-numbers.js";

interface RowView {
  text: string;
  labels: LabelIndex;
  /** Per table; each reads a cell's numbers on first use. */
  tables: TableNumbers[];
  /** Lines read so far by claims that name no label. */
  lines: LineNumbers;
}

// Many claims cite the same source: its tables and labels are read once per request. The parsed tables
// are dropped once indexed, so only labels and cell offsets stay alive for the rest of the request.
const rowViewOf = memoizePerSource((text): RowView => {
  const parsed = parseMarkdownTables(text);
  const tables = parsed.map((table) => new TableNumbers(text, table));
  return { text, labels: buildLabelIndex(parsed), tables, lines: new Map() };
});

// A cell at a named row and a named column when both are named; else any cell of a named row or column.
function holds(cells: TableNumbers, binding: TableBinding, value: string): boolean {
  const { rows, columns } = binding;
  if (rows.length > 0 && columns.length > 0) {
    return rows.some((row) => columns.some((column) => cells.holds(row, column, value)));
  }
  if (rows.length > 0) {
    return rows.some((row) => {
      for (let column = 0; column < cells.columnCount; column += 1)
        if (cells.holds(row, column, value)) return true;
      return false;
    });
  }
  return columns.some((column) => {
    for (let row = 0; row < cells.rowCount; row += 1) if (cells.holds(row, column, value)) return true;
    return false;
  });
}

/**
 * The `row` number check: each value of the claim must sit, within one table, in the cell (or row, or
 * column) the claim names; when the claim names no label of any table, on the quote's own line(s).
 */
export function checkRowNumbers(claim: string, source: PreparedSource, quoteRange: Range): boolean {
  const folded = foldLabelText(claim);
  const numbers = findNumbers(folded);
  if (numbers.length === 0) return true;
  const view = rowViewOf(source);

  // Occurrences come grouped by table: bind each table's run on its own.
  const occurrences = findNamedLabels(folded, view.labels);
  let named = false;
  for (let start = 0; start < occurrences.length; ) {
    const table = (occurrences[start] as LabelOccurrence).table;
    let end = start + 1;
    while (end < occurrences.length && (occurrences[end] as LabelOccurrence).table === table) end += 1;
    const binding = bindClaimToTable(numbers, occurrences.slice(start, end));
    start = end;
    if (binding.rows.length === 0 && binding.columns.length === 0) continue;
    named = true;
    const cells = view.tables[table] as TableNumbers;
    if (binding.values.every((value) => holds(cells, binding, value))) return true;
  }
  if (named) return false;

  const onLines = numbersOnLines(view.text, quoteRange, view.lines);
  return numbers.every((number) => onLines.has(number.key));
}
