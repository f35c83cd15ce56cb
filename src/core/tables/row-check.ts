import {
  MAX_EXPLAIN_CELLS,
  MAX_EXPLAIN_TEXT_CHARS,
  ROW_READS_PER_CLAIM,
  ROW_READS_PER_CLAIM_CHAR,
} from "../../limits.js";
import {
  type FoundNumber,
  findNumberSpans,
  findNumbers,
  type LineNumbers,
  type NumberSpans,
  numbersOnLines,
} from "../numbers/index.js";
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { ReadAllowance } from "../step-counter.js";
import type { CheckedCell, NumberMiss, Range } from "../types.js";
import {
  type Bound,
  boundOf,
  buildHeaderStems,
  findHeaderStems,
  type HeaderStems,
  isDayOfMonth,
  Mentions,
  type MentionTarget,
  ruleOn,
  statedAsValue,
  valueColumns,
} from "../wording/index.js";
import { buildLabelIndex, type LabelIndex } from "./label-index.js";
import { foldLabelText, stripTrailingParenthetical } from "./label-text.js";
import { parseTableLayouts } from "./markdown-tables.js";
import { findNamedLabels } from "./named-labels.js";
import { bindClaimToTable } from "./row-binding.js";
import { holdsPlainNumbers, namesQuotedCell, singleNumberColumn, TableNumbers } from "./table-numbers.js";

interface RowView {
  text: string;
  labels: LabelIndex;
  headers: HeaderStems;
  /** Per table; each reads a cell's numbers on first use. */
  tables: TableNumbers[];
  /** The table and body row of each body row's line, by the line's start offset. */
  rowAt: Map<number, { table: number; row: number }>;
  /** Lines read so far by claims that name no label. */
  lines: LineNumbers;
}

// Many claims cite the same source: its tables and labels are read once per request. The parsed tables
// are dropped once indexed, so only labels and cell offsets stay alive for the rest of the request.
const rowViewOf = memoizePerSource((text): RowView => {
  const parsed = parseTableLayouts(text);
  const tables = parsed.map((table) => new TableNumbers(text, table));
  const rowAt = new Map<number, { table: number; row: number }>();
  parsed.forEach((table, tableIndex) => {
    table.rowLabels.forEach((first, rowIndex) => {
      rowAt.set(text.lastIndexOf("\n", first.start - 1) + 1, { table: tableIndex, row: rowIndex });
    });
  });
  return {
    text,
    labels: buildLabelIndex(parsed),
    headers: buildHeaderStems(
      parsed.map((table) => ({ header: table.header.map((cell) => foldLabelText(cell.text).trim()) })),
      (header) => {
        const shorter = stripTrailingParenthetical(header);
        return shorter === null ? [] : [shorter];
      },
    ),
    tables,
    rowAt,
    lines: new Map(),
  };
});

const NO_LABELS: readonly number[] = [];

// Per table and rows list (a label's own list, a quoted row's `rowList`, or `allRows`): the number keys
// of those rows' cells, all columns together and column by column. Each set is read once per request, and
// a label's rows list is shared by every claim naming it, so all the sets of a table together read each
// cell at most a few times: linear in the table, however many claims and values ask.
interface RowsKeys {
  all?: Set<string>;
  /**
   * Each number of the rows' cells with the words that follow it there (`2` → `laps` of `+ 2 laps`), by
   * number key: a value is looked up with no string made for it.
   */
  phrases?: Map<string, Set<string>>;
  byColumn: Map<number, Set<string>>;
  /** Per column, the least and greatest number of the cells there that hold exactly one number. */
  extremes?: Map<number, { least: number; greatest: number }>;
  /**
   * Per columns list (by identity: a label's list is shared by every mention of it), what the list's
   * columns hold at these rows, read once: a value is then one look-up however many columns the list has.
   */
  byColumns?: WeakMap<readonly number[], ColumnsView>;
}

interface ColumnsView {
  /** The list's columns whose cells at these rows hold a number. */
  constraining?: number[];
  /** Every key the list's columns hold at these rows. */
  keys?: Set<string>;
  /** The least and greatest single-number cell of the list's columns at these rows. */
  extremes?: { least: number; greatest: number };
}

function columnsView(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
  entry = rowsKeys(cells, rows),
): ColumnsView {
  entry.byColumns ??= new WeakMap();
  let view = entry.byColumns.get(columns);
  if (view === undefined) {
    view = {};
    entry.byColumns.set(columns, view);
  }
  return view;
}
const keysCache = new WeakMap<TableNumbers, WeakMap<readonly number[], RowsKeys>>();

function rowsKeys(cells: TableNumbers, rows: readonly number[]): RowsKeys {
  let byRows = keysCache.get(cells);
  if (byRows === undefined) {
    byRows = new WeakMap();
    keysCache.set(cells, byRows);
  }
  let entry = byRows.get(rows);
  if (entry === undefined) {
    entry = { byColumn: new Map() };
    byRows.set(rows, entry);
  }
  return entry;
}

function keysOfRows(
  cells: TableNumbers,
  rows: readonly number[],
  entry = rowsKeys(cells, rows),
): Set<string> {
  if (entry.all === undefined) {
    entry.all = new Set();
    for (const row of rows) {
      for (let column = 0; column < cells.columnCount; column += 1) {
        for (const key of cells.keysAt(row, column)) entry.all.add(key);
      }
    }
  }
  return entry.all;
}

function keysOfColumn(
  cells: TableNumbers,
  rows: readonly number[],
  column: number,
  entry = rowsKeys(cells, rows),
): Set<string> {
  let keys = entry.byColumn.get(column);
  if (keys === undefined) {
    keys = new Set();
    for (const row of rows) for (const key of cells.keysAt(row, column)) keys.add(key);
    entry.byColumn.set(column, keys);
  }
  return keys;
}

const LETTER = /\p{L}/u;

// A letter of folded text: ASCII lower case, or any other script's letter (not a dash or a symbol).
function isLetterCode(code: number): boolean {
  if (code >= 97 && code <= 122) return true;
  return code > 127 && LETTER.test(String.fromCharCode(code));
}

// True when a number of the folded claim is part of a code: one letter glued right after it (`2r`, `3a`;
// not a unit or ordinal such as `9th` or `30pm`), or a `-` right before it that follows a letter
// (`t-ao-190`). The number is `[start, end)`.
function isCode(folded: string, start: number, end: number): boolean {
  if (isLetterCode(folded.charCodeAt(end))) return !isLetterCode(folded.charCodeAt(end + 1));
  return folded.charCodeAt(start - 1) === 45 && isLetterCode(folded.charCodeAt(start - 2));
}

// Where the code holding a number that starts at `start` starts: after the last space before it, at most
// `MAX_CODE_CHARS` back.
function codeStart(folded: string, start: number): number {
  let from = start;
  while (from > 0 && start - from < MAX_CODE_CHARS && folded.charCodeAt(from - 1) !== 32) from -= 1;
  return from;
}

// Where the code holding a number that ends at `end` ends: at the next space, at most `MAX_CODE_CHARS` on.
function codeEnd(folded: string, end: number): number {
  let to = end;
  while (to < folded.length && to - end < MAX_CODE_CHARS && folded.charCodeAt(to) !== 32) to += 1;
  return to;
}

const MAX_CODE_CHARS = 16;

// Where the word after a number ending at `end` starts, past one or more spaces; `end` when no space
// follows. The word runs to `lettersEnd` (two numbers rather than a pair: no array per value).
function wordStartAfterNumber(text: string, end: number): number {
  let start = end;
  while (start < text.length && text.charCodeAt(start) === 32) start += 1;
  return start;
}

function lettersEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length && isLetterCode(text.charCodeAt(end))) end += 1;
  return end;
}

// The phrases of the rows' cells: each number's key with the word after it, read once per request per
// rows list.
function phrasesOfRows(
  cells: TableNumbers,
  rows: readonly number[],
  entry = rowsKeys(cells, rows),
): Map<string, Set<string>> {
  if (entry.phrases === undefined) {
    const phrases = new Map<string, Set<string>>();
    for (const row of rows) {
      for (let column = 0; column < cells.columnCount; column += 1) {
        const text = foldLabelText(cells.cellText(row, column));
        for (const number of findNumbers(text)) {
          const start = wordStartAfterNumber(text, number.end);
          const end = start === number.end ? start : lettersEnd(text, start);
          if (end === start) continue;
          let words = phrases.get(number.key);
          if (words === undefined) {
            words = new Set();
            phrases.set(number.key, words);
          }
          words.add(text.slice(start, end));
        }
      }
    }
    entry.phrases = phrases;
  }
  return entry.phrases;
}

// The least and greatest single-number cell of `column` at `rows` (infinite bounds when there is none),
// read once per request per (rows list, column), like its keys.
function extremesOfColumn(
  cells: TableNumbers,
  rows: readonly number[],
  column: number,
): { least: number; greatest: number } {
  const entry = rowsKeys(cells, rows);
  entry.extremes ??= new Map();
  let extremes = entry.extremes.get(column);
  if (extremes === undefined) {
    extremes = { least: Number.POSITIVE_INFINITY, greatest: Number.NEGATIVE_INFINITY };
    for (const row of rows) {
      const keys = cells.keysAt(row, column);
      if (keys.length !== 1) continue;
      const value = Number(keys[0]);
      if (value < extremes.least) extremes.least = value;
      if (value > extremes.greatest) extremes.greatest = value;
    }
    entry.extremes.set(column, extremes);
  }
  return extremes;
}

// True when a single-number cell between `extremes` satisfies the bound `bound` of `key` (`more than 8`:
// a cell greater than 8).
function meetsExtremes(extremes: { least: number; greatest: number }, bound: Bound, key: string): boolean {
  const limit = Number(key);
  const { least, greatest } = extremes;
  if (bound === ">") return greatest > limit;
  if (bound === ">=") return greatest >= limit;
  if (bound === "<") return least < limit;
  if (bound === "!=") return least !== limit || greatest !== limit;
  return least <= limit;
}

/**
 * The columns that constrain a value at `rows`: those of `columns` whose cells there hold a number (a
 * text column such as `player` identifies the row rather than holding its numbers). Empty: the value may
 * be in any cell of the rows.
 */
function constrainingColumns(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
  view = columnsView(cells, rows, columns),
): number[] {
  view.constraining ??= columnsHoldingNumbers(cells, rows, columns);
  return view.constraining;
}

// Apart from `constrainingColumns`, which runs once per value: a function holding a closure gets a context
// made at every call, even one that makes no closure (700,000 values, 33 MB).
function columnsHoldingNumbers(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
): number[] {
  if (!ruleOn("R4")) return [...columns];
  return columns.filter((column) => keysOfColumn(cells, rows, column).size > 0);
}

function checkedCells(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
): CheckedCell[] {
  const listed: CheckedCell[] = [];
  for (const row of rows) {
    const shown =
      columns.length > 0 ? columns : Array.from({ length: cells.columnCount }, (_, column) => column);
    for (const column of shown) {
      if (listed.length >= MAX_EXPLAIN_CELLS) return listed;
      listed.push({
        row: cells.cellText(row, 0),
        column: cells.headerText(column),
        text: cells.cellText(row, column),
      });
    }
  }
  return listed;
}

/** The folded texts of one row's cells, and their lengths: a text of another length is not sliced to look. */
interface RowTexts {
  texts: Set<string>;
  lengths: Set<number>;
}

const quotedCellsCache = new WeakMap<readonly number[], RowTexts>();

// The folded texts of the cells of one row, read once per request per row (keyed by its `rowList`).
function rowCellTexts(cells: TableNumbers, row: number): RowTexts {
  const list = cells.rowList(row);
  let cellsOfRow = quotedCellsCache.get(list);
  if (cellsOfRow === undefined) {
    cellsOfRow = { texts: new Set(), lengths: new Set() };
    for (let column = 0; column < cells.columnCount; column += 1) {
      const text = foldLabelText(cells.cellText(row, column)).trim();
      cellsOfRow.texts.add(text);
      cellsOfRow.lengths.add(text.length);
    }
    quotedCellsCache.set(list, cellsOfRow);
  }
  return cellsOfRow;
}

// The longest word read beside a label to see whether the two make a longer name.
const MAX_NAME_WORD = 24;

/**
 * True when the label at `[start, end)` and the word right before or after it make the whole text of a
 * cell of the quoted row (`south melbourne` around the label `melbourne`): the claim names that cell,
 * not the label's row. Reads at most one short word on each side.
 */
function insideQuotedCell(
  folded: string,
  start: number,
  end: number,
  cells: TableNumbers,
  quoteRow: number,
): boolean {
  const { texts, lengths } = rowCellTexts(cells, quoteRow);
  let before = start;
  if (folded.charCodeAt(before - 1) === 32) {
    before -= 1;
    const space = before;
    while (before > 0 && space - before < MAX_NAME_WORD && folded.charCodeAt(before - 1) > 32) before -= 1;
    if (before < space && lengths.has(end - before) && texts.has(folded.slice(before, end))) return true;
  }
  let after = end;
  if (folded.charCodeAt(after) !== 32) return false;
  after += 1;
  const wordStart = after;
  while (after < folded.length && after - wordStart < MAX_NAME_WORD && folded.charCodeAt(after) > 32)
    after += 1;
  return after > wordStart && lengths.has(after - start) && texts.has(folded.slice(start, after));
}

// True when a label of `rows` and `columns` names only the column of row labels (its header: `game`, `rank`).
function rowLabelsOnly(rows: readonly number[], columns: readonly number[]): boolean {
  return rows.length === 0 && columns.length === 1 && columns[0] === 0;
}

const numericLabelsCache = new WeakMap<TableNumbers, Map<string, number[]>>();

// The rows whose label is one whole number, by its key; read once per table.
function numericLabels(cells: TableNumbers): Map<string, number[]> {
  let labels = numericLabelsCache.get(cells);
  if (labels === undefined) {
    labels = new Map();
    for (let row = 0; row < cells.rowCount; row += 1) {
      const text = cells.cellText(row, 0);
      const keys = cells.keysAt(row, 0);
      if (keys.length !== 1 || !isNumeric(text, 0, text.length)) continue;
      const key = keys[0] as string;
      const rows = labels.get(key);
      if (rows === undefined) labels.set(key, [row]);
      else rows.push(row);
    }
    numericLabelsCache.set(cells, labels);
  }
  return labels;
}

function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

// True when an ordinal suffix (`st`, `nd`, `rd`, `th`) ends at `end` after digits, and no letter follows.
function ordinalSuffixAt(text: string, at: number): boolean {
  const suffix = text.slice(at, at + 2);
  return (
    (suffix === "st" || suffix === "nd" || suffix === "rd" || suffix === "th") &&
    !isLetterCode(text.charCodeAt(at + 2))
  );
}

/** A row named by an ordinal and the header of the row labels: where the two stand, and the row's list. */
interface OrdinalRow {
  start: number;
  end: number;
  rows: readonly number[];
}

/**
 * The row named by the header of the row labels at `[headerStart, headerEnd)` with an ordinal beside it
 * (`ranked 6th`, `the 49th game`), spanning both; undefined when there is none or no row has that number
 * as its label. Reads a few characters around the header.
 */
function ordinalRow(
  folded: string,
  headerStart: number,
  headerEnd: number,
  cells: TableNumbers,
): OrdinalRow | undefined {
  let start = headerEnd;
  while (start < folded.length && start - headerEnd < 3 && folded.charCodeAt(start) === 32) start += 1;
  let end = start;
  while (end < folded.length && end - start < 6 && isDigitCode(folded.charCodeAt(end))) end += 1;
  if (end > start && start > headerEnd && ordinalSuffixAt(folded, end)) {
    const rows = numericLabels(cells).get(String(Number(folded.slice(start, end))));
    return rows === undefined ? undefined : { start: headerStart, end: end + 2, rows };
  }
  // `49th game`: digits, a suffix and one space right before the header.
  const suffixEnd = headerStart - 1;
  if (folded.charCodeAt(suffixEnd) !== 32 || suffixEnd < 3 || !ordinalSuffixAt(folded, suffixEnd - 2))
    return undefined;
  let digitsStart = suffixEnd - 2;
  while (
    digitsStart > 0 &&
    suffixEnd - 2 - digitsStart < 6 &&
    isDigitCode(folded.charCodeAt(digitsStart - 1))
  )
    digitsStart -= 1;
  if (digitsStart === suffixEnd - 2 || isLetterCode(folded.charCodeAt(digitsStart - 1))) return undefined;
  const rows = numericLabels(cells).get(String(Number(folded.slice(digitsStart, suffixEnd - 2))));
  return rows === undefined ? undefined : { start: digitsStart, end: headerEnd, rows };
}

// A label of one letter (`a`, `d`): as ambiguous as a number, since `a` and `i` are also words.
function isSingleLetter(text: string, start: number, end: number): boolean {
  return end - start === 1 && isLetterCode(text.charCodeAt(start));
}

function isNumeric(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || code === 46 || code === 44)) return false;
  }
  return true;
}

// True when `text[from, to)` is one dash (`-`, `–`) or `to`, with spaces around: the inside of a range.
function isDashBetween(text: string, from: number, to: number): boolean {
  if (to - from > 6) return false;
  let start = from;
  while (start < to && text.charCodeAt(start) === 32) start += 1;
  let end = to;
  while (end > start && text.charCodeAt(end - 1) === 32) end -= 1;
  const inside = text.slice(start, end);
  return inside === "-" || inside === "\u2013" || (inside === "to" && start > from && end < to);
}

// Between a header and the number it introduces only spaces, `.`, `#` or `:` may stand (`no. 5`, `week 5`).
function onlyJoiners(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 46 && code !== 35 && code !== 58) return false;
  }
  return end - start <= 3;
}

// Whether `rows` holds `row`, looked up once per rows list in `cache`.
function holdsRow(cache: Map<readonly number[], boolean>, rows: readonly number[], row: number): boolean {
  let holds = cache.get(rows);
  if (holds === undefined) {
    holds = rows.includes(row);
    cache.set(rows, holds);
  }
  return holds;
}

/**
 * The occurrences of one table that name something, in claim order: the exact labels, plus headers
 * named by inflection or abbreviation where no exact label stands. A numeric row label (`5` for the rank-5
 * row) names its row only when the claim uses it as a label: right after the header of the first column
 * (`week 5`, `no. 5`; that header then introduces the row and constrains nothing), or as the label of the
 * row the claim quotes, and never next to a month name (`december 15`). A one-letter row label (`a`, `d`)
 * is read the same way (`grade d`; `a person` names no row). Elsewhere the number is a value
 * (`5:06.72`, `12 - 5`). A label of both a row and a
 * column (`total`) names only the column when the claim quotes another row of the table.
 */
function namingOccurrences(
  folded: string,
  exact: Mentions,
  stems: Mentions,
  quoteRow: number,
  cells: TableNumbers,
): Mentions {
  // Merge the two claim-ordered lists; where two overlap the longer wins, an exact one on a tie
  // (`home team scored` names `home team score` rather than `home team`).
  // With no stem matches the exact list is read as it is (it is only read below, never changed).
  // Both lists share the claim's targets, so a mention moves from one to the other by its target's index.
  const merged = stems.length === 0 ? exact : new Mentions(exact.targets, exact.length + stems.length);
  let exactAt = stems.length === 0 ? exact.length : 0;
  let stemAt = 0;
  let lastIsExact = false;
  while (exactAt < exact.length || stemAt < stems.length) {
    const takeExact =
      stemAt === stems.length || (exactAt < exact.length && exact.start(exactAt) <= stems.start(stemAt));
    const from = takeExact ? exact : stems;
    const at = takeExact ? exactAt : stemAt;
    if (takeExact) exactAt += 1;
    else stemAt += 1;
    const start = from.start(at);
    const end = from.end(at);
    const last = merged.length - 1;
    // Exact occurrences of one table never overlap each other (the label finder keeps them apart).
    if (last < 0 || merged.end(last) <= start || (takeExact && lastIsExact)) {
      merged.add(start, end, from.targetOf(at));
      lastIsExact = takeExact;
      continue;
    }
    const length = end - start;
    const lastLength = merged.end(last) - merged.start(last);
    if (length > lastLength || (takeExact && length === lastLength)) {
      merged.set(last, start, end, from.targetOf(at));
      lastIsExact = takeExact;
    }
  }

  // Whether a rows list holds the quoted row, once per list: a label naming every row is read once. Made
  // only when a row is quoted, and read through a module function rather than a closure per claim and table.
  const holdsQuoted = quoteRow >= 0 ? new Map<readonly number[], boolean>() : undefined;
  // The targets this table's kept occurrences name that no label does (a label's column without its row, a
  // row named by an ordinal), added to the claim's targets once per target or rows list they come from.
  let columnOnly: Map<number, number> | undefined;
  let ordinalOf: Map<readonly number[], number> | undefined;
  // `kept` stays `merged` itself until the first occurrence is dropped or joined: a claim whose numbers are
  // all values is not copied.
  let kept = merged;
  let keptCount = 0;
  // The index in `kept` of the last row named by the header of the row labels and its number.
  let headerNamed = -1;
  for (let index = 0; index < merged.length; index += 1) {
    const start = merged.start(index);
    const end = merged.end(index);
    const target = merged.targetOf(index);
    const rows = merged.rows(index);
    const columns = merged.columns(index);
    if (
      quoteRow >= 0 &&
      rows.length > 0 &&
      columns.length > 0 &&
      ruleOn("R13") &&
      !holdsRow(holdsQuoted as Map<readonly number[], boolean>, rows, quoteRow)
    ) {
      // A label of both a row and a column (`total`) in a claim quoting another row names the column:
      // `the ussr had a total of 25` quoting the ussr row is not about the total row.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      columnOnly ??= new Map();
      let column = columnOnly.get(target);
      if (column === undefined) {
        column = kept.targets.length;
        kept.targets.push({ table: merged.table(index), rows: NO_LABELS, columns });
        columnOnly.set(target, column);
      }
      kept.add(start, end, column);
      keptCount += 1;
      continue;
    }
    if (
      quoteRow >= 0 &&
      rows.length > 0 &&
      columns.length === 0 &&
      !holdsRow(holdsQuoted as Map<readonly number[], boolean>, rows, quoteRow) &&
      ruleOn("R26") &&
      insideQuotedCell(folded, start, end, cells, quoteRow)
    ) {
      // `south melbourne` names the quoted row's cell `south melbourne`, not the row `melbourne`.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      continue;
    }
    const numericRow =
      rows.length > 0 &&
      columns.length === 0 &&
      ruleOn("R7") &&
      (isNumeric(folded, start, end) || (ruleOn("R23") && isSingleLetter(folded, start, end)));
    if (numericRow && isDayOfMonth(folded, start, end)) {
      // A number next to a month name is a day of a date (`on december 15 , 1985`), never a row label.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      continue;
    }
    if (!numericRow) {
      const ordinal =
        rowLabelsOnly(rows, columns) && ruleOn("R24") ? ordinalRow(folded, start, end, cells) : undefined;
      if (ordinal !== undefined) {
        // `49th game`, `ranked 6th`: the header and its ordinal name the row together.
        if (kept === merged) kept = merged.copyFirst(keptCount);
        ordinalOf ??= new Map();
        let named = ordinalOf.get(ordinal.rows);
        if (named === undefined) {
          named = kept.targets.length;
          const row: MentionTarget = { table: merged.table(index), rows: ordinal.rows, columns: NO_LABELS };
          kept.targets.push(row);
          ordinalOf.set(ordinal.rows, named);
        }
        kept.add(ordinal.start, ordinal.end, named);
      } else if (kept !== merged) kept.add(start, end, target);
      keptCount += 1;
      continue;
    }
    const previous = keptCount - 1;
    if (
      previous >= 0 &&
      kept.columns(previous)[0] === 0 &&
      kept.rows(previous).length === 0 &&
      onlyJoiners(folded, kept.end(previous), start)
    ) {
      // The header and its number name the row together, so the number is no value.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      kept.set(previous, kept.start(previous), end, target);
      headerNamed = previous;
    } else if (
      previous >= 0 &&
      headerNamed === previous &&
      ruleOn("R25") &&
      isDashBetween(folded, kept.end(previous), start)
    ) {
      // A range after the header (`games 18 - 30`) names each of its rows; its dash starts the
      // occurrence, so the last number is no whole label read as a value either.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      kept.add(kept.end(previous), end, target);
      headerNamed = keptCount;
      keptCount += 1;
    } else if (holdsQuoted !== undefined && holdsRow(holdsQuoted, rows, quoteRow)) {
      if (kept !== merged) kept.add(start, end, target);
      keptCount += 1;
    } else if (kept === merged) kept = merged.copyFirst(keptCount);
  }
  return kept;
}

// The occurrences whose first column is one the binding names. A label named again and again shares one
// columns list, so each distinct list is looked up once.
function namedColumnMentions(occurrences: Mentions, namedColumns: ReadonlySet<number>): Mentions {
  if (namedColumns.size === 0) return new Mentions(occurrences.targets);
  // Runs of mentions are copied a run at a time. With a single run, that run is the answer, read in place
  // (a claim naming a row and then a column a million times drops the row without copying the rest), and
  // when it is the whole list, the list itself.
  let mentions: Mentions | undefined;
  let runStart = -1;
  // The last two columns lists met and whether the binding names them: a claim naming two labels in turn
  // (`a b a b …`) looks neither up again.
  let lastList: readonly number[] | undefined;
  let lastNamed = false;
  let otherList: readonly number[] | undefined;
  let otherNamed = false;
  for (let index = 0; index <= occurrences.length; index += 1) {
    const more = index < occurrences.length;
    const list = more ? occurrences.columns(index) : lastList;
    if (list !== undefined && list !== lastList) {
      const named: boolean =
        list === otherList ? otherNamed : list.length > 0 && namedColumns.has(list[0] as number);
      otherList = lastList;
      otherNamed = lastNamed;
      lastList = list;
      lastNamed = named;
    }
    if (more && lastNamed) {
      if (runStart < 0) runStart = index;
      continue;
    }
    if (runStart < 0) continue;
    if (mentions === undefined) {
      if (runStart === 0 && index === occurrences.length) return occurrences;
      mentions = occurrences.slice(runStart, index);
    } else mentions.addRange(occurrences, runStart, index);
    runStart = -1;
  }
  return mentions ?? new Mentions(occurrences.targets);
}

function clip(text: string): string {
  return text.length <= MAX_EXPLAIN_TEXT_CHARS ? text : `${text.slice(0, MAX_EXPLAIN_TEXT_CHARS)}…`;
}

// The table and row a quote lies on, when it is one body row's line.
function quotedRow(view: RowView, quoteRange: Range): { table: number; row: number } | undefined {
  const [start, end] = quoteRange;
  const lineStart = view.text.lastIndexOf("\n", start - 1) + 1;
  const newline = view.text.indexOf("\n", start);
  if (newline >= 0 && newline < end) return undefined;
  return view.rowAt.get(lineStart);
}

// The first occurrence starting at or after `start`, searched from `from` on (every one before `from`
// starts before `start`). Occurrences are in claim order, so this is a galloping search: a claim of
// millions of mentions builds no set of them, and values asked in claim order cost a few steps each.
function occurrenceFrom(occurrences: Mentions, start: number, from: number): number {
  let low = from;
  let step = 1;
  while (low + step <= occurrences.length && occurrences.start(low + step - 1) < start) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step - 1, occurrences.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (occurrences.start(middle) < start) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Whether an occurrence naming a column starts at `start`, the first at or after it being `first`.
function namesColumnAt(occurrences: Mentions, start: number, first: number): boolean {
  for (let index = first; index < occurrences.length; index += 1) {
    if (occurrences.start(index) !== start) return false;
    if (occurrences.columns(index).length > 0) return true;
  }
  return false;
}

/** Where a table fails a claim: the value, and the rows and columns it was looked for in. */
interface TableMiss {
  table: number;
  cells: TableNumbers;
  rows: readonly number[];
  constraining: readonly number[];
  value: FoundNumber;
}

// True when some column of `columns` holds `key` at `rows`.
function someColumnHolds(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
  key: string,
  view = columnsView(cells, rows, columns),
): boolean {
  if (view.keys === undefined) {
    view.keys = new Set();
    for (const column of columns) for (const each of keysOfColumn(cells, rows, column)) view.keys.add(each);
  }
  return view.keys.has(key);
}

// True when some column of `columns` has a single-number cell at `rows` that meets the bound.
function someColumnMeets(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
  bound: Bound,
  key: string,
  view = columnsView(cells, rows, columns),
): boolean {
  // Some column's cell meets the bound exactly when the list's greatest (or least) cell does.
  if (view.extremes === undefined) {
    view.extremes = { least: Number.POSITIVE_INFINITY, greatest: Number.NEGATIVE_INFINITY };
    for (const column of columns) {
      const { least, greatest } = extremesOfColumn(cells, rows, column);
      if (least < view.extremes.least) view.extremes.least = least;
      if (greatest > view.extremes.greatest) view.extremes.greatest = greatest;
    }
  }
  return meetsExtremes(view.extremes, bound, key);
}

/**
 * Checks the claim's values against one table, named by `occurrences`: undefined when the claim binds
 * nothing of the table, null when every value holds, else the first value that does not.
 */
function checkTable(
  folded: string,
  numbers: NumberSpans,
  cells: TableNumbers,
  occurrences: Mentions,
  quoteRow: number,
): TableMiss | null | undefined {
  const binding = bindClaimToTable(numbers, occurrences);
  if (binding.rows.length === 0 && binding.columns.length === 0) return undefined;
  const namedColumns = new Set(binding.columns);
  const paired = valueColumns(
    folded,
    binding.valueNumbers,
    namedColumnMentions(occurrences, namedColumns),
    undefined,
    occurrences,
  );
  const allRows = cells.allRows();
  // The rows list and columns lists the last value used, with what they hold, kept by identity: a claim's
  // values mostly share them, and then look none of them up again.
  let lastRows: readonly number[] | undefined;
  let entry = undefined as unknown as RowsKeys;
  let lastListed: readonly number[] | undefined;
  let listedView = undefined as unknown as ColumnsView;
  let lastConstraining: readonly number[] | undefined;
  let constrainingView = undefined as unknown as ColumnsView;
  // The first occurrence at or after the last word read after a value, `occurrenceStart`: values come in
  // claim order, and one that did not would search from the first occurrence again.
  let occurrenceAt = 0;
  let occurrenceStart = 0;
  for (let index = 0; index < binding.values.length; index += 1) {
    let rows = binding.valueRows[index] as readonly number[];
    if (rows.length === 0 && quoteRow >= 0 && ruleOn("R1")) rows = cells.rowList(quoteRow);
    const own = paired[index] as readonly number[];
    if (rows.length === 0) {
      // No row named or quoted: the value may be in any cell of its columns (or of all named columns).
      if (binding.columns.length === 0) continue;
      rows = allRows;
    }
    if (rows !== lastRows) {
      lastRows = rows;
      entry = rowsKeys(cells, rows);
      lastListed = undefined;
      lastConstraining = undefined;
    }
    const key = binding.values[index] as string;
    const valueStart = binding.valueNumbers.start(index);
    const valueEnd = binding.valueNumbers.end(index);
    // A number glued to letters is part of a code (`2r`, `t-ao-190`): its own column constrains it even
    // where that column's cells hold no number, since the code is that cell's text or not.
    const code = ruleOn("R14") && isCode(folded, valueStart, valueEnd);
    let constraining = own as number[];
    if (own.length === 0 || !code) {
      const listed = own.length > 0 ? own : rows === allRows ? binding.columns : NO_LABELS;
      if (listed !== lastListed) {
        lastListed = listed;
        listedView = columnsView(cells, rows, listed, entry);
      }
      constraining = constrainingColumns(cells, rows, listed, listedView);
    }
    // A number followed by the header word a cell of the row also has after it (`2 laps` for the
    // cell `+ 2 laps` beside a `laps` column) is that cell's.
    const wordStart = wordStartAfterNumber(folded, valueEnd);
    const wordEnd = wordStart === valueEnd ? wordStart : lettersEnd(folded, wordStart);
    if (wordEnd > wordStart) {
      occurrenceAt = occurrenceFrom(occurrences, wordStart, wordStart < occurrenceStart ? 0 : occurrenceAt);
      occurrenceStart = wordStart;
    }
    const statedLikeCell =
      ruleOn("R15") &&
      wordEnd > wordStart &&
      namesColumnAt(occurrences, wordStart, occurrenceAt) &&
      rows !== allRows &&
      phrasesOfRows(cells, rows, entry).get(key)?.has(folded.slice(wordStart, wordEnd)) === true;
    if (statedLikeCell) continue;
    // A code that the bound row's label shows (`fa-2` for the row `fa - 2`) names that row.
    if (code && rows !== allRows && keysOfColumn(cells, rows, 0, entry).has(key)) continue;
    if (constraining.length === 0) {
      if (keysOfRows(cells, rows, entry).has(key)) continue;
      // A bound with no column (`larger than 22`) compares with the quoted row's cell of that number.
      const bound = quoteRow >= 0 && ruleOn("R30") ? boundOf(folded, valueStart) : null;
      const column = bound === null ? undefined : singleNumberColumn(cells, quoteRow, key);
      if (column !== undefined && someColumnMeets(cells, rows, column, bound as Bound, key)) continue;
    } else {
      if (constraining !== lastConstraining) {
        lastConstraining = constraining;
        constrainingView = columnsView(cells, rows, constraining, entry);
      }
      const bound = ruleOn("R12") ? boundOf(folded, valueStart) : null;
      // `other than 0` says the cell is not 0.
      if (bound !== "!=" && someColumnHolds(cells, rows, constraining, key, constrainingView)) continue;
      // A bound (`more than 8 against`) states no cell: it must be on the bound row, or in its column at
      // the row the claim quotes (a named row compared with the quoted one), and its column's cell (one
      // number) must meet it.
      if (
        bound !== null &&
        (keysOfRows(cells, rows, entry).has(key) ||
          (quoteRow >= 0 &&
            ruleOn("R20") &&
            someColumnHolds(cells, cells.rowList(quoteRow), constraining, key))) &&
        someColumnMeets(cells, rows, constraining, bound, key, constrainingView)
      )
        continue;
    }
    // A cell of the quoted row written out in full around the number (`196 buried`) is that cell.
    if (
      rows.length === 1 &&
      rows[0] === quoteRow &&
      ruleOn("R28") &&
      namesQuotedCell(folded, key, valueStart, valueEnd, cells, quoteRow, own, occurrences)
    )
      continue;
    // A code paired with a column whose cell is a plain number is not that cell's: within a phrase (not
    // stated by a copula or `:`), it holds where a cell of the bound row reads the code (`with a 3a wiaa
    // classification`, the cell `3a`).
    if (code && rows.length === 1 && ruleOn("R37") && holdsPlainNumbers(cells, rows[0] as number, own)) {
      const from = codeStart(folded, valueStart);
      const codeText = folded.slice(from, codeEnd(folded, valueEnd));
      if (!statedAsValue(folded, from) && rowCellTexts(cells, rows[0] as number).texts.has(codeText))
        continue;
    }
    if (!ruleOn("R9")) continue;
    return { table: -1, cells, rows, constraining, value: binding.valueNumbers.at(index) };
  }
  return null;
}

/**
 * The `row` number check: each value of the claim must sit, within one table, in the cell (or row, or
 * column) the claim names; with no row named, in the row the claim quotes; when the claim names no label
 * of any table, on the quote's own line(s). Null when every number holds, else the first number that does
 * not and what it was checked against.
 */
export function explainRowNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
): NumberMiss | null {
  const folded = foldLabelText(claim);
  // Held in a typed array: a claim of megabytes holds hundreds of thousands of numbers.
  const numbers = findNumberSpans(folded);
  if (numbers.length === 0) return null;
  const view = rowViewOf(source);
  const quoted = quotedRow(view, quoteRange);

  const allowance = rowReadAllowance(folded);
  // Occurrences come grouped by table: bind each table's run on its own.
  const exact = findNamedLabels(folded, view.labels, undefined, allowance);
  // Stem matches name targets of the same list as exact ones, so the two merge by index.
  const stems =
    allowance.left < 0 || !ruleOn("R5")
      ? new Mentions(exact.targets)
      : findHeaderStems(folded, view.headers, undefined, allowance, exact.targets);
  if (allowance.left < 0) return unread(folded, numbers);
  // Exact occurrences come grouped by table (runs, read in place); stem matches are few and grouped here.
  const exactBy = new Map<number, Mentions>();
  for (let start = 0; start < exact.length; ) {
    const table = exact.table(start);
    let end = start + 1;
    // Grouped by table in ascending order: when the first and last share a table, so do all (one look).
    if (start === 0 && exact.table(exact.length - 1) === table) end = exact.length;
    while (end < exact.length && exact.table(end) === table) end += 1;
    exactBy.set(table, start === 0 && end === exact.length ? exact : exact.slice(start, end));
    start = end;
  }
  const stemsBy = new Map<number, Mentions>();
  for (let index = 0; index < stems.length; index += 1) {
    const table = stems.table(index);
    let run = stemsBy.get(table);
    if (run === undefined) {
      run = new Mentions(stems.targets);
      stemsBy.set(table, run);
    }
    run.add(stems.start(index), stems.end(index), stems.targetOf(index));
  }
  // Exact occurrences come in ascending table order: only stem matches can add tables to sort in.
  const tables =
    stemsBy.size === 0
      ? [...exactBy.keys()]
      : [...new Set([...exactBy.keys(), ...stemsBy.keys()])].sort((a, b) => a - b);
  // The quoted row's table is read first: a claim about the row it quotes is usually held there, and then
  // no other table need be read. Otherwise every table is read, and the miss returned is that of the first
  // table in order, as when they are read in order.
  const quotedTable =
    quoted !== undefined && (exactBy.has(quoted.table) || stemsBy.has(quoted.table)) ? quoted.table : -1;
  let firstMiss: TableMiss | null = null;
  let named = false;
  // The list of a table that no label or stem names, read only.
  const none = new Mentions(exact.targets);
  for (let at = quotedTable >= 0 ? -1 : 0; at < tables.length; at += 1) {
    const table = at < 0 ? quotedTable : (tables[at] as number);
    if (at >= 0 && table === quotedTable) continue;
    const quoteRow = table === quotedTable ? (quoted as { row: number }).row : -1;
    const occurrences = namingOccurrences(
      folded,
      exactBy.get(table) ?? none,
      stemsBy.get(table) ?? none,
      quoteRow,
      view.tables[table] as TableNumbers,
    );
    // Each table read costs its occurrences and the claim's numbers: a claim naming thousands of tables
    // would otherwise read all its numbers in every one of them.
    allowance.left -= occurrences.length + numbers.length;
    if (allowance.left < 0) return unread(folded, numbers);
    const outcome = checkTable(folded, numbers, view.tables[table] as TableNumbers, occurrences, quoteRow);
    if (outcome === undefined) continue;
    named = true;
    if (outcome === null) return null;
    if (firstMiss === null || table < firstMiss.table) {
      outcome.table = table;
      firstMiss = outcome;
    }
  }
  if (named) {
    // A table's miss is described (its checked cells listed) only if it is the one returned.
    if (firstMiss === null) return null;
    const { cells, rows, constraining, value } = firstMiss;
    return {
      number: folded.slice(value.start, value.end),
      checked: "cells",
      cells: checkedCells(cells, rows, constraining),
    };
  }

  const onLines = numbersOnLines(view.text, quoteRange, view.lines);
  let missing = 0;
  while (missing < numbers.length && onLines.has(numbers.key(missing))) missing += 1;
  if (missing === numbers.length) return null;
  const lineStart = view.text.lastIndexOf("\n", quoteRange[0] - 1) + 1;
  const lineEnd = view.text.indexOf("\n", Math.max(quoteRange[0], quoteRange[1] - 1));
  return {
    number: folded.slice(numbers.start(missing), numbers.end(missing)),
    checked: "line",
    text: clip(view.text.slice(lineStart, lineEnd < 0 ? view.text.length : lineEnd)),
  };
}

/**
 * What the row check may read for a claim of `folded.length` characters: `ROW_READS_PER_CLAIM_CHAR` units
 * per character plus `ROW_READS_PER_CLAIM`. A claim people write names a few labels of a few tables and
 * uses a tiny part of it; one generated to name labels at every word of thousands of tables, or labels
 * nested in each other (`a`, `a a`, `a a a`, …), would otherwise cost the product of claim and source.
 */
export function rowReadAllowance(folded: string): ReadAllowance {
  return { left: ROW_READS_PER_CLAIM + ROW_READS_PER_CLAIM_CHAR * folded.length };
}

// A claim the row check stopped reading is dropped: its first number was not bound to any cell.
function unread(folded: string, numbers: NumberSpans): NumberMiss {
  return { number: folded.slice(numbers.start(0), numbers.end(0)), checked: "cells", cells: [] };
}

/** The `row` number check (see `explainRowNumbers`): true when every number of the claim holds. */
export function checkRowNumbers(claim: string, source: PreparedSource, quoteRange: Range): boolean {
  return explainRowNumbers(claim, source, quoteRange) === null;
}
