import { getOrMake } from "../lists.js";
import type { StepCounter } from "../step-counter.js";
import { foldLabelText, type TableNumbers } from "../tables/index.js";
import { besideWithNumbers, isDigitCode, type Mentions } from "../wording/index.js";

// R45: a number that no label stands beside, and whose neighbouring words are not those of a cell, is
// said of its row rather than of the column named farther away (`the gdp of the nation with 56,210,000
// people is $ 36,728`, where `gdp` names two columns): it may be in any cell of the bound row.

// A character of a token: an ASCII letter or digit, or one past ASCII outside the punctuation blocks
// (`–`, `′`, `·`, `°` separate tokens as spaces do).
function isTokenCode(code: number): boolean {
  return (
    isDigitCode(code) ||
    (code >= 97 && code <= 122) ||
    (code > 127 && !(code >= 0x2000 && code <= 0x2bff) && code !== 0xb7 && code !== 0xb0)
  );
}

// Tokens longer than this are read only this far (a claim of one long word costs a constant per number).
const TOKEN_READ = 32;
// A cell's tokens are read from its first characters only.
const CELL_READ = 256;
// The cells holding the number, and the columns of its own, that are read.
const CELLS_READ = 8;

// The token next to `[start, end)` of the claim past at most three signs, before it (`step` -1) or after
// it (1); "" when there is none.
function tokenBeside(folded: string, start: number, end: number, step: 1 | -1, work: StepCounter): string {
  let at = step === 1 ? end : start - 1;
  for (let skipped = 0; skipped < 3 && at >= 0 && at < folded.length; skipped += 1) {
    if (isTokenCode(folded.charCodeAt(at))) break;
    at += step;
  }
  let to = at;
  while (
    to >= 0 &&
    to < folded.length &&
    Math.abs(to - at) < TOKEN_READ &&
    isTokenCode(folded.charCodeAt(to))
  )
    to += step;
  work.steps += 3 + Math.abs(to - at);
  return step === 1 ? folded.slice(at, to) : folded.slice(to + 1, at + 1);
}

function addTokens(text: string, into: Set<string>, work: StepCounter): Set<string> {
  const end = Math.min(text.length, CELL_READ);
  work.steps += end;
  for (let at = 0; at < end; ) {
    if (!isTokenCode(text.charCodeAt(at))) {
      at += 1;
      continue;
    }
    let to = at;
    while (to < end && isTokenCode(text.charCodeAt(to))) to += 1;
    into.add(text.slice(at, to));
    at = to;
  }
  return into;
}

/** A table's tokens, read once per source: per cell (by slot), per column, and the cells holding a key per rows list. */
interface TableTokens {
  cells: Map<number, Set<string>>;
  columns: Map<number, Set<string>>;
  holding: WeakMap<readonly number[], Map<string, number[]>>;
}

const tokensOf = new WeakMap<TableNumbers, TableTokens>();
const newTableTokens = (): TableTokens => ({ cells: new Map(), columns: new Map(), holding: new WeakMap() });

const cellText = (cells: TableNumbers, row: number, column: number): string =>
  foldLabelText(cells.cellText(row, column).slice(0, CELL_READ));

function cellTokens(
  cells: TableNumbers,
  tokens: TableTokens,
  row: number,
  column: number,
  work: StepCounter,
): Set<string> {
  work.steps += 1;
  return getOrMake(tokens.cells, row * cells.columnCount + column, () =>
    addTokens(cellText(cells, row, column), new Set(), work),
  );
}

function columnTokens(
  cells: TableNumbers,
  tokens: TableTokens,
  column: number,
  work: StepCounter,
): Set<string> {
  work.steps += 1;
  return getOrMake(tokens.columns, column, () => {
    const all = new Set<string>();
    for (let row = 0; row < cells.rowCount; row += 1) addTokens(cellText(cells, row, column), all, work);
    return all;
  });
}

// Per key, the slots of the cells of `rows` that hold it (at most `CELLS_READ`), read once per rows list.
function holdingCells(
  cells: TableNumbers,
  tokens: TableTokens,
  rows: readonly number[],
  work: StepCounter,
): Map<string, number[]> {
  return getOrMake(tokens.holding, rows, () => {
    const byKey = new Map<string, number[]>();
    for (const row of rows) {
      for (let column = 0; column < cells.columnCount; column += 1) {
        work.steps += 1;
        for (const key of cells.keysAt(row, column)) {
          work.steps += 1;
          const slots = getOrMake(byKey, key, () => []);
          if (slots.length < CELLS_READ) slots.push(row * cells.columnCount + column);
        }
      }
    }
    return byKey;
  });
}

// True when a label the claim names ends right before the number or starts right after it, with at most
// one linking word and signs between (`points : 12`, `was 10 (50)`). Mentions come in claim order: the
// ones around the number are found by binary search.
function labelBeside(
  folded: string,
  occurrences: Mentions,
  valueStart: number,
  valueEnd: number,
  work: StepCounter,
): boolean {
  let low = 0;
  let high = occurrences.length;
  // Two spans of at most 24 characters each.
  work.steps += 48;
  while (low < high) {
    work.steps += 1;
    const middle = (low + high) >>> 1;
    if (occurrences.start(middle) < valueEnd) low = middle + 1;
    else high = middle;
  }
  if (low < occurrences.length && besideWithNumbers(folded, valueEnd, occurrences.start(low))) return true;
  // The mention before the number: the last one ending at or before it (one holding it is skipped).
  let before = low - 1;
  if (before >= 0 && occurrences.end(before) > valueStart) before -= 1;
  return (
    before >= 0 &&
    occurrences.end(before) <= valueStart &&
    besideWithNumbers(folded, occurrences.end(before), valueStart)
  );
}

/**
 * True when the number `key` at `[valueStart, valueEnd)` of the claim stands alone (R45): no label is
 * beside it, some cell of `rows` holds it, and the words beside it are neither those of a cell holding it
 * (the claim would write that cell out under another column's name) nor those of its own columns' cells
 * (`w 14 - 6` written from the result column). Reads the mentions around it by binary search, two tokens
 * of at most 32 characters, and at most eight cells and eight columns, whose words are read once per
 * source (at most 256 characters a cell): O(log m) per number besides reading the table once. `counter`
 * counts the characters and cells read.
 */
export function standsAlone(
  folded: string,
  occurrences: Mentions,
  cells: TableNumbers,
  rows: readonly number[],
  own: readonly number[],
  key: string,
  valueStart: number,
  valueEnd: number,
  counter?: StepCounter,
): boolean {
  const work = counter ?? { steps: 0 };
  if (labelBeside(folded, occurrences, valueStart, valueEnd, work)) return false;
  const tokens = getOrMake(tokensOf, cells, newTableTokens);
  const slots = holdingCells(cells, tokens, rows, work).get(key);
  if (slots === undefined) return false;
  const before = tokenBeside(folded, valueStart, valueEnd, -1, work);
  const after = tokenBeside(folded, valueStart, valueEnd, 1, work);
  const writes = (words: Set<string>) => words.has(before) || words.has(after);
  for (const slot of slots) {
    const row = Math.floor(slot / cells.columnCount);
    if (writes(cellTokens(cells, tokens, row, slot - row * cells.columnCount, work))) return false;
  }
  const read = Math.min(own.length, CELLS_READ);
  for (let at = 0; at < read; at += 1)
    if (writes(columnTokens(cells, tokens, own[at] as number, work))) return false;
  return true;
}
