import {
  MAX_EXPLAIN_CELLS,
  MAX_EXPLAIN_TEXT_CHARS,
  ROW_READS_PER_CLAIM,
  ROW_READS_PER_CLAIM_CHAR,
} from "../../limits.js";
import { getOrMake } from "../lists.js";
import {
  type FoundNumber,
  findNumberSpans,
  type LineNumbers,
  type NumberSpans,
  numbersOnLines,
} from "../numbers/index.js";
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { ReadAllowance, StepCounter } from "../step-counter.js";
import {
  foldLabelText,
  namesQuotedCell,
  parseTableLayouts,
  stripTrailingParenthetical,
  TableNumbers,
} from "../tables/index.js";
import type { CheckedCell, NumberMiss, Range } from "../types.js";
import {
  allOf,
  type Bound,
  boundOf,
  buildHeaderStems,
  codeClass,
  findHeaderStems,
  type HeaderStems,
  isDayOfMonth,
  Mentions,
  type MentionTarget,
  onlyNumberSigns,
  ruleOn,
  statesDifferenceOfRows,
  valueColumns,
} from "../wording/index.js";
import { buildLabelIndex, type LabelIndex } from "./label-index.js";
import { findNamedLabels } from "./named-labels.js";
import { bindClaimToTable, type TableBinding } from "./row-binding.js";

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
    labels: buildLabelIndex(parsed, text),
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
  byColumn: Map<number, Set<string>>;
  /** Per column, the least and greatest number of the cells there that hold exactly one number. */
  extremes?: Map<number, { least: number; greatest: number }>;
  /**
   * Per columns list (by identity: a label's list is shared by every mention of it), what the list's
   * columns hold at these rows, read once: a value is then one look-up however many columns the list has.
   */
  byColumns?: WeakMap<readonly number[], ColumnsView>;
  /** For a single row: per key, the first column whose cell is that one number (R43). */
  columnOf?: Map<string, number>;
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
  return getOrMake(entry.byColumns, columns, newColumnsView);
}
const keysCache = new WeakMap<TableNumbers, WeakMap<readonly number[], RowsKeys>>();

function rowsKeys(cells: TableNumbers, rows: readonly number[]): RowsKeys {
  return getOrMake(getOrMake(keysCache, cells, newWeakMap), rows, newRowsKeys);
}

// Made once, not per call: these run once per value of claims of many values.
const newWeakMap = () => new WeakMap<readonly number[], RowsKeys>();
const newRowsKeys = (): RowsKeys => ({ byColumn: new Map() });
const newColumnsView = (): ColumnsView => ({});

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
function isAnyLetter(code: number): boolean {
  if (code >= 97 && code <= 122) return true;
  return code > 127 && LETTER.test(String.fromCharCode(code));
}

// True when a number of the folded claim is part of a code: one letter glued right after it (`2r`, `3a`;
// not a unit or ordinal such as `9th` or `30pm`), or a `-` right before it that follows a letter
// (`t-ao-190`). The number is `[start, end)`.
function isCode(folded: string, start: number, end: number): boolean {
  if (isAnyLetter(folded.charCodeAt(end))) return !isAnyLetter(folded.charCodeAt(end + 1));
  return folded.charCodeAt(start - 1) === 45 && isAnyLetter(folded.charCodeAt(start - 2));
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
 * be in any cell of the rows. A loop, not a filter: a closure gets a context made at every call (700,000
 * values, 33 MB).
 */
function constrainingColumns(
  cells: TableNumbers,
  rows: readonly number[],
  columns: readonly number[],
  view = columnsView(cells, rows, columns),
): number[] {
  if (view.constraining === undefined) {
    view.constraining = [];
    for (const column of columns)
      if (!ruleOn("R4") || keysOfColumn(cells, rows, column).size > 0) view.constraining.push(column);
  }
  return view.constraining;
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

const isNumberChar = codeClass("0123456789.,");

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
function namingOccurrences(folded: string, exact: Mentions, stems: Mentions, quoteRow: number): Mentions {
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
  // The targets this table's kept occurrences name that no label does (a label's column without its row),
  // added to the claim's targets once per target they come from.
  let columnOnly: Map<number, number> | undefined;
  // `kept` stays `merged` itself until the first occurrence is dropped or joined: a claim whose numbers are
  // all values is not copied.
  let kept = merged;
  let keptCount = 0;
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
      const column = columnOnly.get(target);
      const only: MentionTarget = { table: merged.table(index), rows: NO_LABELS, columns };
      if (column !== undefined) kept.add(start, end, column);
      else columnOnly.set(target, kept.addTarget(start, end, only));
      keptCount += 1;
      continue;
    }
    const numericRow =
      rows.length > 0 && columns.length === 0 && ruleOn("R7") && allOf(folded, start, end, isNumberChar);
    if (numericRow && isDayOfMonth(folded, start, end)) {
      // A number next to a month name is a day of a date (`on december 15 , 1985`), never a row label.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      continue;
    }
    if (!numericRow) {
      if (kept !== merged) kept.add(start, end, target);
      keptCount += 1;
      continue;
    }
    const previous = keptCount - 1;
    if (
      previous >= 0 &&
      kept.columns(previous)[0] === 0 &&
      kept.rows(previous).length === 0 &&
      onlyNumberSigns(folded, kept.end(previous), start)
    ) {
      // The header and its number name the row together, so the number is no value.
      if (kept === merged) kept = merged.copyFirst(keptCount);
      kept.set(previous, kept.start(previous), end, target);
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

// True when `key` is a bound (`larger than 22`) and the first column where the quoted row's cell is that
// one number has, at `rows`, a single-number cell meeting it (R43). The quoted row's columns are read once.
function quotedColumnMeets(
  folded: string,
  cells: TableNumbers,
  rows: readonly number[],
  quoteRow: number,
  key: string,
  valueStart: number,
): boolean {
  const bound = boundOf(folded, valueStart);
  if (bound === null) return false;
  const quoted = rowsKeys(cells, cells.rowList(quoteRow));
  if (quoted.columnOf === undefined) {
    quoted.columnOf = new Map();
    for (let column = cells.columnCount - 1; column >= 0; column -= 1) {
      const keys = cells.keysAt(quoteRow, column);
      if (keys.length === 1) quoted.columnOf.set(keys[0] as string, column);
    }
  }
  const column = quoted.columnOf.get(key);
  return column !== undefined && meetsExtremes(extremesOfColumn(cells, rows, column), bound, key);
}

// The columns of a mention read for a rival: a header repeated over thousands of columns is not read in full.
const RIVAL_COLUMNS_READ = 8;

/**
 * True when `test` holds for a mention between the claim's numbers before and after the number starting
 * at `valueStart` (R40's window), read in claim order up to the first mention that ends past the next
 * number. Both ends of the window are found by binary search, and a mention lies between two consecutive
 * numbers, so calling it for every number of a claim reads each mention at most twice, plus one per
 * number: O(m + n log(n + m)) for n numbers and m mentions. `counter` counts search steps and mentions read.
 */
export function someMentionBetweenNumbers(
  numbers: NumberSpans,
  occurrences: Mentions,
  valueStart: number,
  test: (mention: number) => boolean,
  counter?: StepCounter,
): boolean {
  let steps = 0;
  let low = 0;
  let high = numbers.length;
  while (low < high) {
    steps += 1;
    const middle = (low + high) >>> 1;
    if (numbers.start(middle) < valueStart) low = middle + 1;
    else high = middle;
  }
  const windowStart = low > 0 ? numbers.end(low - 1) : 0;
  const windowEnd = low + 1 < numbers.length ? numbers.start(low + 1) : Number.POSITIVE_INFINITY;
  low = 0;
  high = occurrences.length;
  while (low < high) {
    steps += 1;
    const middle = (low + high) >>> 1;
    if (occurrences.start(middle) < windowStart) low = middle + 1;
    else high = middle;
  }
  let found = false;
  for (let mention = low; mention < occurrences.length; mention += 1) {
    steps += 1;
    if (occurrences.end(mention) > windowEnd) break;
    if (test(mention)) {
      found = true;
      break;
    }
  }
  if (counter !== undefined) counter.steps += steps;
  return found;
}

// True when the mention and the one before or after it stand next to each other, only spaces between.
function touchesMention(folded: string, occurrences: Mentions, mention: number): boolean {
  const spaces = (from: number, to: number) =>
    to === from || (to === from + 1 && folded.charCodeAt(from) === 32);
  return (
    (mention > 0 && spaces(occurrences.end(mention - 1), occurrences.start(mention))) ||
    (mention + 1 < occurrences.length && spaces(occurrences.end(mention), occurrences.start(mention + 1)))
  );
}

/**
 * True when a column mention with no number between it and value `index` names a column whose cell at
 * `rows` holds the value (R40): the claim names two columns together before the number (`an overall
 * pick of 171`), and nearness alone does not say which is its. Only the mentions between the
 * claim's numbers before and after the value are read (`someMentionBetweenNumbers`).
 */
function rivalColumnHolds(
  folded: string,
  numbers: NumberSpans,
  occurrences: Mentions,
  index: number,
  { binding, cells }: TableState,
  rows: readonly number[],
  entry: RowsKeys,
): boolean {
  const key = binding.values[index] as string;
  return someMentionBetweenNumbers(numbers, occurrences, binding.valueNumbers.start(index), (mention) => {
    // A label of a row as well (`total`) names the row here, not a rival column; and only two columns
    // named together (`overall pick of 171`) leave the number's column open: one named apart (`210 and
    // profit`) is another value's.
    if (occurrences.rows(mention).length > 0 || !touchesMention(folded, occurrences, mention)) return false;
    const columns = occurrences.columns(mention);
    const read = Math.min(columns.length, RIVAL_COLUMNS_READ);
    for (let at = 0; at < read; at += 1)
      if (keysOfColumn(cells, rows, columns[at] as number, entry).has(key)) return true;
    return false;
  });
}

// Rows and named columns a difference between rows reads, and columns where the claim names none: a claim
// naming thousands of rows, or a table of thousands of columns, is not read in full (at most 28 pairs of
// rows in 64 columns per number).
const DIFFERENCE_READ = 8;
const DIFFERENCE_COLUMNS = 64;

/**
 * True when a difference between rows (R46) may be `key`: the claim names fewer than two rows (the other
 * row is not named, so no cell tells), or two of its named rows hold single-number cells `key` apart in a
 * column it names (any of the first 64 columns when it names none). Reads at most 8 rows and 8 named
 * columns: a constant per number.
 */
function differenceHolds(cells: TableNumbers, binding: TableBinding, key: string): boolean {
  const rows = [...new Set(binding.rows.slice(0, DIFFERENCE_COLUMNS))].slice(0, DIFFERENCE_READ);
  if (rows.length < 2) return true;
  const named = binding.columns.slice(0, DIFFERENCE_READ);
  const wanted = Number(key);
  const count = named.length > 0 ? named.length : Math.min(cells.columnCount, DIFFERENCE_COLUMNS);
  for (let at = 0; at < count; at += 1) {
    const column = named.length > 0 ? (named[at] as number) : at;
    // The rows' cells there that are one number each.
    const values = rows.map((row) => cells.keysAt(row, column)).filter((keys) => keys.length === 1);
    for (let first = 0; first < values.length; first += 1)
      for (let second = first + 1; second < values.length; second += 1)
        if (Math.abs(Math.abs(Number(values[first]?.[0]) - Number(values[second]?.[0])) - wanted) < 1e-9)
          return true;
  }
  return false;
}

// Until `find labels` sets the list of its claim's targets.
const NO_MENTIONS = new Mentions();

/** What the passes of the row check share for one claim: each pass reads what the passes before it wrote. */
interface ClaimState {
  /** Read the claim: the folded claim, its numbers, the source's tables and the row the quote cites. */
  folded: string;
  numbers: NumberSpans;
  view: RowView;
  quoted: { table: number; row: number } | undefined;
  allowance: ReadAllowance;
  /** Find labels: per table, the exact labels and the header stems the claim names, in claim order. */
  exactBy: Map<number, Mentions>;
  stemsBy: Map<number, Mentions>;
  /** The list of a table that no label or stem names, read only. */
  none: Mentions;
}

/** What the passes share for one table: its cells, the quoted row in it (or -1), and what each pass bound. */
interface TableState {
  cells: TableNumbers;
  quoteRow: number;
  /** Find labels: the occurrences that name something of this table. */
  occurrences: Mentions;
  /** Bind rows: the claim's values and the rows each belongs to. */
  binding: TableBinding;
  /** Bind columns: per value, the columns it belongs to. */
  paired: (readonly number[])[];
}

/** Pass `read the claim`: the claim's numbers and what the source holds; null when it has no number. */
function readClaim(claim: string, source: PreparedSource, quoteRange: Range): ClaimState | null {
  const folded = foldLabelText(claim);
  // Held in a typed array: a claim of megabytes holds hundreds of thousands of numbers.
  const numbers = findNumberSpans(folded);
  if (numbers.length === 0) return null;
  const view = rowViewOf(source);
  return {
    folded,
    numbers,
    view,
    quoted: quotedRow(view, quoteRange),
    allowance: rowReadAllowance(folded),
    exactBy: new Map(),
    stemsBy: new Map(),
    none: NO_MENTIONS,
  };
}

/**
 * Pass `find labels`, over the whole claim: the exact labels and header stems it names, grouped by table.
 * False when the claim costs more than its allowance.
 */
function findLabels(state: ClaimState): boolean {
  const { folded, view, allowance } = state;
  // Occurrences come grouped by table: bind each table's run on its own.
  const exact = findNamedLabels(folded, view.labels, undefined, allowance);
  // Stem matches name targets of the same list as exact ones, so the two merge by index.
  const stems =
    allowance.left < 0 || !ruleOn("R5")
      ? new Mentions(exact.targets)
      : findHeaderStems(folded, view.headers, undefined, allowance, exact.targets);
  if (allowance.left < 0) return false;
  // Exact occurrences come grouped by table (runs, read in place); stem matches are few and grouped here.
  const { exactBy, stemsBy } = state;
  for (let start = 0; start < exact.length; ) {
    const table = exact.table(start);
    let end = start + 1;
    // Grouped by table in ascending order: when the first and last share a table, so do all (one look).
    if (start === 0 && exact.table(exact.length - 1) === table) end = exact.length;
    while (end < exact.length && exact.table(end) === table) end += 1;
    exactBy.set(table, start === 0 && end === exact.length ? exact : exact.slice(start, end));
    start = end;
  }
  for (let index = 0; index < stems.length; index += 1) {
    const run = getOrMake(stemsBy, stems.table(index), () => new Mentions(stems.targets));
    run.add(stems.start(index), stems.end(index), stems.targetOf(index));
  }
  state.none = new Mentions(exact.targets);
  return true;
}

/** Pass `find labels`, for one table: the claim's occurrences that name something of it. */
function findTableLabels(state: ClaimState, table: number, quoteRow: number): Mentions {
  return namingOccurrences(
    state.folded,
    state.exactBy.get(table) ?? state.none,
    state.stemsBy.get(table) ?? state.none,
    quoteRow,
  );
}

/** Pass `bind rows`: the claim's values and their rows in one table; undefined when it binds nothing there. */
function bindRows(
  state: ClaimState,
  table: number,
  quoteRow: number,
  occurrences: Mentions,
): TableState | undefined {
  const binding = bindClaimToTable(state.numbers, occurrences);
  if (binding.rows.length === 0 && binding.columns.length === 0) return undefined;
  const cells = state.view.tables[table] as TableNumbers;
  return { cells, quoteRow, occurrences, binding, paired: [] };
}

/** Pass `bind columns`: per value, the one named column it belongs to. */
function bindColumns(state: ClaimState, tableState: TableState): void {
  const { binding, occurrences } = tableState;
  tableState.paired = valueColumns(
    state.folded,
    binding.valueNumbers,
    namedColumnMentions(occurrences, new Set(binding.columns)),
  );
}

/** Pass `check cells`: null when every value holds in its cell, row or column, else the first that does not. */
function checkCells(state: ClaimState, tableState: TableState): TableMiss | null {
  const { folded } = state;
  const { cells, quoteRow, occurrences, binding, paired } = tableState;
  const allRows = cells.allRows();
  // The rows list and columns lists the last value used, with what they hold, kept by identity: a claim's
  // values mostly share them, and then look none of them up again.
  let lastRows: readonly number[] | undefined;
  let entry = undefined as unknown as RowsKeys;
  let lastListed: readonly number[] | undefined;
  let listedView = undefined as unknown as ColumnsView;
  let lastConstraining: readonly number[] | undefined;
  let constrainingView = undefined as unknown as ColumnsView;
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
    // A code that the bound row's label shows (`fa-2` for the row `fa - 2`) names that row.
    if (code && rows !== allRows && keysOfColumn(cells, rows, 0, entry).has(key)) continue;
    if (constraining.length === 0) {
      if (keysOfRows(cells, rows, entry).has(key)) continue;
    } else {
      if (constraining !== lastConstraining) {
        lastConstraining = constraining;
        constrainingView = columnsView(cells, rows, constraining, entry);
      }
      const bound = ruleOn("R12") ? boundOf(folded, valueStart) : null;
      // `other than 0` says the cell is not 0: holding it is what the claim denies.
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
    // A bound comparing a named row with the quoted one, in a column the claim does not name (`bo ray is
    // a baker above 22`, quoting the row whose locker is 22): the column where the quoted
    // row holds the number, and the named row's cell there must meet the bound.
    if (
      quoteRow >= 0 &&
      rows.length === 1 &&
      rows[0] !== quoteRow &&
      constraining.length === 0 &&
      ruleOn("R43") &&
      quotedColumnMeets(folded, cells, rows, quoteRow, key, valueStart)
    )
      continue;
    // A cell of the quoted row written out in full around the number (`196 buried`) is that cell.
    if (
      rows.length === 1 &&
      rows[0] === quoteRow &&
      ruleOn("R28") &&
      namesQuotedCell(folded, key, valueStart, valueEnd, cells, quoteRow, own, occurrences)
    )
      continue;
    // A column the claim names beside the number as well (`an overall pick of 171`) may be its column.
    if (
      rows !== allRows &&
      ruleOn("R40") &&
      rivalColumnHolds(folded, state.numbers, occurrences, index, tableState, rows, entry)
    )
      continue;
    // A difference between rows (`4 seconds faster than`) is no cell's value.
    if (
      binding.rows.length > 0 &&
      ruleOn("R46") &&
      statesDifferenceOfRows(folded, valueEnd) &&
      differenceHolds(cells, binding, key)
    )
      continue;
    if (!ruleOn("R9")) continue;
    return { table: -1, cells, rows, constraining, value: binding.valueNumbers.at(index) };
  }
  return null;
}

/**
 * The `row` number check: each value of the claim must sit, within one table, in the cell (or row, or
 * column) the claim names; with no row named, in the row the claim quotes; when the claim names no label
 * of any table, on the quote's own line(s). Null when every number holds, else the first number that does
 * not and what it was checked against. Runs the passes in order: read the claim, find labels, then per
 * table bind rows, bind columns and check cells.
 */
export function explainRowNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
): NumberMiss | null {
  const state = readClaim(claim, source, quoteRange);
  if (state === null) return null;
  const { folded, numbers, view, quoted, allowance, exactBy, stemsBy } = state;
  if (!findLabels(state)) return unread(folded, numbers);
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
  for (let at = quotedTable >= 0 ? -1 : 0; at < tables.length; at += 1) {
    const table = at < 0 ? quotedTable : (tables[at] as number);
    if (at >= 0 && table === quotedTable) continue;
    const quoteRow = table === quotedTable ? (quoted as { row: number }).row : -1;
    const occurrences = findTableLabels(state, table, quoteRow);
    // Each table read costs its occurrences and the claim's numbers: a claim naming thousands of tables
    // would otherwise read all its numbers in every one of them.
    allowance.left -= occurrences.length + numbers.length;
    if (allowance.left < 0) return unread(folded, numbers);
    const tableState = bindRows(state, table, quoteRow, occurrences);
    if (tableState === undefined) continue;
    bindColumns(state, tableState);
    const outcome = checkCells(state, tableState);
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
