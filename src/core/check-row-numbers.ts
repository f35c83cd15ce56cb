import { bindClaimToTable, type TableBinding } from "./bind-claim-to-table.js";
import { buildLabelIndex, type LabelIndex } from "./build-label-index.js";
import { findNamedLabels, type LabelOccurrence } from "./find-named-labels.js";
import { type FoundNumber, findNumbers } from "./find-numbers.js";
import { foldLabelText } from "./fold-label-text.js";
import { indexTableNumbers, type TableNumbers } from "./index-table-numbers.js";
import { numbersOnLines } from "./numbers-on-lines.js";
import { parseMarkdownTables } from "./parse-markdown-tables.js";
import { memoizePerSource, type PreparedSource } from "./prepared-source.js";
import type { Range } from "./types.js";

interface RowView {
  labels: LabelIndex;
  tables: TableNumbers[];
  numbers: FoundNumber[];
}

// Many claims cite the same source: its tables, labels and numbers are read once per request.
const rowViewOf = memoizePerSource((text): RowView => {
  const tables = parseMarkdownTables(text);
  return {
    labels: buildLabelIndex(tables),
    tables: tables.map(indexTableNumbers),
    numbers: findNumbers(text),
  };
});

function holds(table: TableNumbers, binding: TableBinding, value: string): boolean {
  const { rows, columns } = binding;
  if (rows.length > 0 && columns.length > 0) {
    return rows.some((row) => columns.some((column) => table.cells[row]?.[column]?.has(value) === true));
  }
  if (rows.length > 0) return rows.some((row) => table.rows[row]?.has(value) === true);
  return columns.some((column) => table.columns[column]?.has(value) === true);
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
    const table = view.tables[tableNumber] as TableNumbers;
    if (binding.values.every((value) => holds(table, binding, value))) return true;
  }
  if (named) return false;

  const onLines = numbersOnLines(source.text, view.numbers, quoteRange);
  return numbers.every((number) => onLines.has(number.key));
}
