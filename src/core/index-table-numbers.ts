import { findNumbers } from "./find-numbers.js";
import type { MarkdownTable } from "./parse-markdown-tables.js";

/** The number keys of a table: per cell (`cells[row][column]`), per body row and per column. */
export interface TableNumbers {
  cells: Set<string>[][];
  rows: Set<string>[];
  columns: Set<string>[];
}

/**
 * Collects the number keys of every body cell, so a claimed value is looked up rather than re-parsed.
 * A row's set includes its label cell and a column's set its body cells, not its header.
 */
export function indexTableNumbers(table: MarkdownTable): TableNumbers {
  const columns = table.header.map(() => new Set<string>());
  const rows: Set<string>[] = [];
  const cells = table.rows.map((row) => {
    const rowKeys = new Set<string>();
    rows.push(rowKeys);
    return row.map((cell, column) => {
      const keys = new Set(findNumbers(cell.text).map((number) => number.key));
      for (const key of keys) {
        rowKeys.add(key);
        columns[column]?.add(key);
      }
      return keys;
    });
  });
  return { cells, rows, columns };
}
