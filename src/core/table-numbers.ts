import { nextNumberStart, numberEnd } from "./find-numbers.js";
import { numberKey } from "./number-key.js";
import type { MarkdownTable } from "./parse-markdown-tables.js";

const NO_KEYS: readonly string[] = [];

/**
 * The number keys of a table's body cells, each cell read on first use: a claim looks only at the cells
 * of the rows or columns it names, so most cells of a long source are never read.
 */
export class TableNumbers {
  readonly #text: string;
  readonly #table: MarkdownTable;
  readonly #keys: (readonly string[] | undefined)[] = [];

  /** `text` is the table's source, `table` one of its tables. */
  constructor(text: string, table: MarkdownTable) {
    this.#text = text;
    this.#table = table;
  }

  /** The number keys of the body cell at `row` and `column`, in order (none for a cell out of range). */
  keysAt(row: number, column: number): readonly string[] {
    const columns = this.#table.header.length;
    const slot = row * columns + column;
    let keys = this.#keys[slot];
    if (keys === undefined) {
      const cell = column < columns ? this.#table.rows[row]?.[column] : undefined;
      keys = cell === undefined ? NO_KEYS : this.#read(cell.start, cell.end);
      this.#keys[slot] = keys;
    }
    return keys;
  }

  /** True when the cell at `row` and `column` holds a number with key `key`. */
  holds(row: number, column: number, key: string): boolean {
    return this.keysAt(row, column).includes(key);
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
