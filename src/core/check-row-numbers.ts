import { bindClaimToTable, type TableBinding } from "./bind-claim-to-table.js";
import { buildLabelIndex, type LabelIndex } from "./build-label-index.js";
import { findNamedLabels, type LabelOccurrence } from "./find-named-labels.js";
import { findNumbers } from "./find-numbers.js";
import { foldLabelText } from "./fold-label-text.js";
import { type LineNumbers, numbersOnLines } from "./numbers-on-lines.js";
import { type MarkdownTable, parseMarkdownTables } from "./parse-markdown-tables.js";
import { memoizePerSource, type PreparedSource } from "./prepared-source.js";
import { TableNumbers } from "./table-numbers.js";
import type { Range } from "./types.js";

interface RowView {
  text: string;
  tables: MarkdownTable[];
  labels: LabelIndex;
  /** Per table, read on the first claim that names it: most tables of a long source are never named. */
  tableNumbers: (TableNumbers | undefined)[];
  /** Lines read so far by claims that name no label. */
  lines: LineNumbers;
}

// Many claims cite the same source: its tables and labels are read once per request, its numbers lazily.
const rowViewOf = memoizePerSource((text): RowView => {
  const tables = parseMarkdownTables(text);
  return { text, tables, labels: buildLabelIndex(tables), tableNumbers: [], lines: new Map() };
});

function numbersOfTable(view: RowView, table: number): TableNumbers {
  let numbers = view.tableNumbers[table];
  if (numbers === undefined) {
    numbers = new TableNumbers(view.text, view.tables[table] as MarkdownTable);
    view.tableNumbers[table] = numbers;
  }
  return numbers;
}

// A cell at a named row and a named column when both are named; else any cell of a named row or column.
function holds(table: MarkdownTable, cells: TableNumbers, binding: TableBinding, value: string): boolean {
  const { rows, columns } = binding;
  if (rows.length > 0 && columns.length > 0) {
    return rows.some((row) => columns.some((column) => cells.holds(row, column, value)));
  }
  if (rows.length > 0) {
    return rows.some((row) => {
      for (let column = 0; column < table.header.length; column += 1)
        if (cells.holds(row, column, value)) return true;
      return false;
    });
  }
  return columns.some((column) => {
    for (let row = 0; row < table.rows.length; row += 1) if (cells.holds(row, column, value)) return true;
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

  const byTable = new Map<number, LabelOccurrence[]>();
  for (const occurrence of findNamedLabels(folded, view.labels)) {
    const list = byTable.get(occurrence.table);
    if (list === undefined) byTable.set(occurrence.table, [occurrence]);
    else list.push(occurrence);
  }
  let named = false;
  for (const [tableNumber, occurrences] of byTable) {
    const binding = bindClaimToTable(numbers, occurrences);
    if (binding.rows.length === 0 && binding.columns.length === 0) continue;
    named = true;
    const table = view.tables[tableNumber] as MarkdownTable;
    const cells = numbersOfTable(view, tableNumber);
    if (binding.values.every((value) => holds(table, cells, binding, value))) return true;
  }
  if (named) return false;

  const onLines = numbersOnLines(view.text, quoteRange, view.lines);
  return numbers.every((number) => onLines.has(number.key));
}
