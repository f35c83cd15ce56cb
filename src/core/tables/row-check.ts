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

const NO_LABELS: readonly number[] = [];
// Per table, the number keys of the cells a binding names, by its rows list and then its columns list.
// Bindings hand back a label's own list when one label names them, so claims naming the same label
// again share one set: a table of R rows sharing a label is read once per request, not once per claim.
const namedKeysCache = new WeakMap<
  TableNumbers,
  WeakMap<readonly number[], WeakMap<readonly number[], Set<string>>>
>();

// The keys of the cells at a named row and a named column when both are named; else of every cell of the
// named rows or columns. Read once per binding, so each value is then one lookup.
function namedKeys(cells: TableNumbers, binding: TableBinding): Set<string> {
  const rows = binding.rows.length > 0 ? binding.rows : NO_LABELS;
  const columns = binding.columns.length > 0 ? binding.columns : NO_LABELS;
  let byRows = namedKeysCache.get(cells);
  if (byRows === undefined) {
    byRows = new WeakMap();
    namedKeysCache.set(cells, byRows);
  }
  let byColumns = byRows.get(rows);
  if (byColumns === undefined) {
    byColumns = new WeakMap();
    byRows.set(rows, byColumns);
  }
  let keys = byColumns.get(columns);
  if (keys !== undefined) return keys;
  keys = new Set<string>();
  const add = (row: number, column: number) => {
    for (const key of cells.keysAt(row, column)) keys.add(key);
  };
  if (rows.length > 0 && columns.length > 0) {
    for (const row of rows) for (const column of columns) add(row, column);
  } else if (rows.length > 0) {
    for (const row of rows) for (let column = 0; column < cells.columnCount; column += 1) add(row, column);
  } else {
    for (const column of columns) for (let row = 0; row < cells.rowCount; row += 1) add(row, column);
  }
  byColumns.set(columns, keys);
  return keys;
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
    const keys = namedKeys(cells, binding);
    if (binding.values.every((value) => keys.has(value))) return true;
  }
  if (named) return false;

  const onLines = numbersOnLines(view.text, quoteRange, view.lines);
  return numbers.every((number) => onLines.has(number.key));
}
