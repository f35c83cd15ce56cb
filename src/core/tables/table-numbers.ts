import { nextNumberStart, numberEnd, numberKey } from "../numbers/index.js";
import type { MarkdownTable, TableLayout } from "./markdown-tables.js";

const NO_KEYS: readonly string[] = [];

/**
 * The number keys of a table's body cells, each cell read on first use: a claim looks only at the cells
 * of the rows or columns it names, so most cells of a long source are never read. Only the cells' offsets
 * are kept (not the parsed table), so a request's live memory stays small.
 */
export class TableNumbers {
  /** Body rows and header cells of the table. */
  readonly rowCount: number;
  readonly columnCount: number;
  readonly #text: string;
  // [start, end) of each body cell, row by row.
  readonly #offsets: Int32Array;
  readonly #keys: (readonly string[] | undefined)[] = [];
  // [start, end) of each header cell.
  readonly #headerOffsets: Int32Array;
  // Per row, a list holding only that row: a stable key for the cells cache of a quoted row.
  readonly #rowLists: (readonly number[] | undefined)[] = [];
  #allRows: readonly number[] | undefined;

  /** `text` is the table's source, `table` one of its tables (a layout's offsets are kept as they are). */
  constructor(text: string, table: MarkdownTable | TableLayout) {
    this.#text = text;
    this.columnCount = table.header.length;
    this.#headerOffsets = new Int32Array(this.columnCount * 2);
    table.header.forEach((cell, column) => {
      this.#headerOffsets[column * 2] = cell.start;
      this.#headerOffsets[column * 2 + 1] = cell.end;
    });
    if ("cellOffsets" in table) {
      this.rowCount = table.rowLabels.length;
      this.#offsets = table.cellOffsets;
      return;
    }
    this.rowCount = table.rows.length;
    this.#offsets = new Int32Array(this.rowCount * this.columnCount * 2);
    let slot = 0;
    for (const row of table.rows) {
      for (const cell of row) {
        this.#offsets[slot] = cell.start;
        this.#offsets[slot + 1] = cell.end;
        slot += 2;
      }
    }
  }

  /** The number keys of the body cell at `row` and `column`, in order (none for a cell out of range). */
  keysAt(row: number, column: number): readonly string[] {
    if (row < 0 || row >= this.rowCount || column < 0 || column >= this.columnCount) return NO_KEYS;
    const slot = row * this.columnCount + column;
    let keys = this.#keys[slot];
    if (keys === undefined) {
      keys = this.#read(this.#offsets[slot * 2] as number, this.#offsets[slot * 2 + 1] as number);
      this.#keys[slot] = keys;
    }
    return keys;
  }

  /** True when the cell at `row` and `column` holds a number with key `key`. */
  holds(row: number, column: number, key: string): boolean {
    return this.keysAt(row, column).includes(key);
  }

  /** The text of the body cell at `row` and `column` ("" out of range). */
  cellText(row: number, column: number): string {
    if (row < 0 || row >= this.rowCount || column < 0 || column >= this.columnCount) return "";
    const slot = (row * this.columnCount + column) * 2;
    return this.#text.slice(this.#offsets[slot] as number, this.#offsets[slot + 1] as number);
  }

  /** The text of the header cell of `column` ("" out of range). */
  headerText(column: number): string {
    if (column < 0 || column >= this.columnCount) return "";
    return this.#text.slice(
      this.#headerOffsets[column * 2] as number,
      this.#headerOffsets[column * 2 + 1] as number,
    );
  }

  /** Every body row, the same list object on every call. */
  allRows(): readonly number[] {
    if (this.#allRows === undefined) {
      const rows: number[] = [];
      for (let row = 0; row < this.rowCount; row += 1) rows.push(row);
      this.#allRows = rows;
    }
    return this.#allRows;
  }

  /** `[row]`, the same list object on every call for one row. */
  rowList(row: number): readonly number[] {
    let list = this.#rowLists[row];
    if (list === undefined) {
      list = [row];
      this.#rowLists[row] = list;
    }
    return list;
  }

  #read(from: number, to: number): readonly string[] {
    const text = this.#text;
    let keys: string[] | undefined;
    for (let start = nextNumberStart(text, from, to); start >= 0; ) {
      const end = numberEnd(text, start, to);
      keys ??= [];
      keys.push(numberKey(text, start, end));
      start = nextNumberStart(text, end, to);
    }
    return keys ?? NO_KEYS;
  }
}
