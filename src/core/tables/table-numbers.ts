import { getOrMake } from "../lists.js";
import { findNumbers, nextNumberStart, numberEnd, numberKey } from "../numbers/index.js";
import { codePointAt, isWordChar } from "../text/index.js";
import { isCircumstance, isDigitCode, type Mentions } from "../wording/index.js";
import { foldLabelText } from "./label-text.js";
import type { TableLayout } from "./markdown-tables.js";

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

  /** `text` is the table's source, `table` one of its tables (its offsets are kept as they are). */
  constructor(text: string, table: TableLayout) {
    this.#text = text;
    this.columnCount = table.header.length;
    this.#headerOffsets = new Int32Array(this.columnCount * 2);
    table.header.forEach((cell, column) => {
      this.#headerOffsets[column * 2] = cell.start;
      this.#headerOffsets[column * 2 + 1] = cell.end;
    });
    this.rowCount = table.rowLabels.length;
    this.#offsets = table.cellOffsets;
  }

  /** The number keys of the body cell at `row` and `column`, in order (none for a cell out of range). */
  keysAt(row: number, column: number): readonly string[] {
    if (row < 0 || row >= this.rowCount || column < 0 || column >= this.columnCount) return NO_KEYS;
    const slot = row * this.columnCount + column;
    this.#keys[slot] ??= this.#read(this.#offsets[slot * 2] as number, this.#offsets[slot * 2 + 1] as number);
    return this.#keys[slot];
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
    this.#allRows ??= Array.from({ length: this.rowCount }, (_, row) => row);
    return this.#allRows;
  }

  /** `[row]`, the same list object on every call for one row. */
  rowList(row: number): readonly number[] {
    this.#rowLists[row] ??= [row];
    return this.#rowLists[row];
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

// What the quoted row's cells say beyond their number keys: a cell the claim writes out in full (rule 28),
// and the column where a bound's number stands (rule 30).

/**
 * One number of a quoted row's cell that holds more than that number (`196 buried`, `12 / 04 / 1969`,
 * `petronas 05a`): the cell's column, its folded text, and where the number stands in it.
 */
interface CellNumber {
  column: number;
  text: string;
  start: number;
  end: number;
}

// A cell longer than this is not looked for as a whole in a claim: reading one costs its length per number.
const MAX_CELL_CHARS = 64;
// The cells of the quoted row tried per number of the claim (in column order): a row of thousands of
// cells holding `1` is not read again for every `1` of a claim.
const MAX_CELLS_PER_NUMBER = 4;

const cellNumbersCache = new WeakMap<readonly number[], Map<string, CellNumber[]>>();

// True when `text` holds more than the number at `[start, end)`: another number, or a word apart from it.
// A code (`1r`, `3a`) is no more than its number: rule 14 checks it in its own column.
function holdsMoreThan(text: string, start: number, end: number): boolean {
  let apart = false;
  for (let index = 0; index < text.length; index += 1) {
    if (index === start) index = end;
    const code = text.charCodeAt(index);
    if (isDigitCode(code)) return true;
    if (!isWordChar(codePointAt(text, index))) apart = true;
    else if (apart || index < start) return true;
  }
  return false;
}

// The numbers of one row's short cells that hold more than a number, by key.
function readCellNumbers(cells: TableNumbers, row: number): Map<string, CellNumber[]> {
  const byKey = new Map<string, CellNumber[]>();
  for (let column = 0; column < cells.columnCount; column += 1) {
    const raw = cells.cellText(row, column);
    if (raw.trim().length > MAX_CELL_CHARS) continue;
    const text = foldLabelText(raw).trim();
    for (const number of findNumbers(text)) {
      if (!holdsMoreThan(text, number.start, number.end)) continue;
      const found = getOrMake(byKey, number.key, () => []);
      if (found.length < MAX_CELLS_PER_NUMBER)
        found.push({ column, text, start: number.start, end: number.end });
    }
  }
  return byKey;
}

// Where the claim's stretch that spells `cell.text` around the number at `[start, end)` starts, spaces
// not counted (`12/04/1969` spells `12 / 04 / 1969`), or -1 when the claim spells something else there or
// the stretch does not stand as whole words. Reads at most twice the cell's length.
function spelledStart(folded: string, start: number, end: number, cell: CellNumber): number {
  let claimAt = start;
  let cellAt = cell.start;
  while (cellAt > 0) {
    if (cell.text.charCodeAt(cellAt - 1) === 32) {
      cellAt -= 1;
      continue;
    }
    if (folded.charCodeAt(claimAt - 1) === 32) claimAt -= 1;
    if (claimAt === 0 || folded.charCodeAt(claimAt - 1) !== cell.text.charCodeAt(cellAt - 1)) return -1;
    claimAt -= 1;
    cellAt -= 1;
  }
  let claimEnd = end;
  let cellEnd = cell.end;
  while (cellEnd < cell.text.length) {
    if (cell.text.charCodeAt(cellEnd) === 32) {
      cellEnd += 1;
      continue;
    }
    if (folded.charCodeAt(claimEnd) === 32) claimEnd += 1;
    if (folded.charCodeAt(claimEnd) !== cell.text.charCodeAt(cellEnd)) return -1;
    claimEnd += 1;
    cellEnd += 1;
  }
  const standsApart =
    !isWordChar(codePointAt(folded, claimAt - 1)) && !isWordChar(codePointAt(folded, claimEnd));
  return standsApart ? claimAt : -1;
}

// The mentions read back from a number for the column named before it: past a few row labels only.
const MENTIONS_BACK = 4;
// The columns of one list read to find a cell's column: a header repeated over thousands of columns
// is not read in full for every number.
const COLUMNS_READ = 8;

// True when `column` is among the first `COLUMNS_READ` of `columns`.
function listsColumn(columns: readonly number[], column: number): boolean {
  const read = Math.min(columns.length, COLUMNS_READ);
  for (let index = 0; index < read; index += 1) if (columns[index] === column) return true;
  return false;
}

// True when one of the `MENTIONS_BACK` occurrences ending at or before `start` names `column`. A binary
// search and a few reads: O(log n) per number.
function namedBefore(occurrences: Mentions, start: number, column: number): boolean {
  let low = 0;
  let high = occurrences.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (occurrences.end(middle) <= start) low = middle + 1;
    else high = middle;
  }
  for (let index = low - 1; index >= 0 && index >= low - MENTIONS_BACK; index -= 1) {
    if (listsColumn(occurrences.columns(index), column)) return true;
  }
  return false;
}

/**
 * True when the claim writes out a cell of row `row` (the quoted row) around the value with key `key` at
 * `[start, end)`, and that cell is the value's to take: the value has no column, or the cell's column is
 * the one it is paired with or one of the few mentions before it names it (`if the friday show was
 * 212 lanterns the monday …`: `monday` is nearer, but the claim spells friday's cell).
 */
export function namesQuotedCell(
  folded: string,
  key: string,
  start: number,
  end: number,
  cells: TableNumbers,
  row: number,
  own: readonly number[],
  occurrences: Mentions,
): boolean {
  // O(1) per number: at most `MAX_CELLS_PER_NUMBER` cells of `MAX_CELL_CHARS` characters are read, and
  // the row's cells once per request.
  const byKey = getOrMake(cellNumbersCache, cells.rowList(row), () => readCellNumbers(cells, row));
  for (const cell of byKey.get(key) ?? []) {
    const stretchStart = spelledStart(folded, start, end, cell);
    if (stretchStart < 0) continue;
    return (
      own.length === 0 ||
      listsColumn(own, cell.column) ||
      namedBefore(occurrences, start, cell.column) ||
      ((stretchStart === 0 || isCircumstance(folded, stretchStart)) &&
        holdsAtMostOnePlainNumber(cells, row, own))
    );
  }
  return false;
}

// True when each of the first columns of `columns` holds at `row` no number or one plain number (`30`,
// not `12 - 0` or `2 jan 45 bc`): a cell written out in full is not such a column's value.
function holdsAtMostOnePlainNumber(cells: TableNumbers, row: number, columns: readonly number[]): boolean {
  const read = Math.min(columns.length, COLUMNS_READ);
  for (let index = 0; index < read; index += 1) {
    const column = columns[index] as number;
    if (cells.keysAt(row, column).length > 0 && !isPlainNumber(cells, row, column)) return false;
  }
  return true;
}

// True when the cell at (`row`, `column`) is one number and no letter, in at most `MAX_CELL_CHARS`.
function isPlainNumber(cells: TableNumbers, row: number, column: number): boolean {
  if (cells.keysAt(row, column).length !== 1) return false;
  const raw = cells.cellText(row, column);
  if (raw.length > MAX_CELL_CHARS) return false;
  const text = foldLabelText(raw);
  for (let at = 0; at < text.length; at += 1) if (isLetterAt(text, at)) return false;
  return true;
}

function isLetterAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (code >= 97 && code <= 122) || (code > 127 && isWordChar(codePointAt(text, index)));
}
