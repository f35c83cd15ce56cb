// The row guarantees' wording generator (issue 33): claims that name one row label and one column label of
// a markdown table and carry one number (or two, each for its own column), crossed over verb phrases and
// word orders, with what the `row` check must answer. Pure and deterministic: the unit suite samples it
// with fast-check over a small fixture (`test/fixtures/row-wordings-tables.json`), and
// `npm run bench -- row-wordings` enumerates it over the shared table corpus.
import { judgeClaims } from "../../src/core/claims/verify-claims.js";
import { findNumbers } from "../../src/core/numbers/scan.js";
import { type PreparedSource, prepareSources } from "../../src/core/prepared-source.js";
import { foldLabelText } from "../../src/core/tables/label-text.js";
import { parseMarkdownTables } from "../../src/core/tables/markdown-tables.js";
import type { Range } from "../../src/core/types.js";
import { headerStem } from "../../src/core/wording/header-words.js";

/** A verb phrase and the kind of verb it is. */
export interface VerbPhrase {
  kind: "copula" | "reporting" | "total" | "change" | "prepositional";
  text: string;
}

const verbs = (kind: VerbPhrase["kind"], ...texts: string[]): VerbPhrase[] =>
  texts.map((text) => ({ kind, text }));

/** 44 verb phrases: copulas, reporting verbs, totals, changes and prepositions. */
export const VERB_PHRASES: readonly VerbPhrase[] = [
  ...verbs("copula", "was", "is", "has been", "remains"),
  ...verbs(
    "reporting",
    "reported",
    "recorded",
    "posted",
    "showed",
    "had",
    "listed at",
    "was reported at",
    "was recorded at",
    "registered",
    "logged",
    "shows",
    "has",
  ),
  ...verbs(
    "total",
    "amounted to",
    "totaled",
    "totalled",
    "came to",
    "came in at",
    "stood at",
    "reached",
    "ended at",
    "finished at",
    "added up to",
    "hit",
    "summed to",
  ),
  ...verbs(
    "change",
    "rose to",
    "fell to",
    "grew to",
    "declined to",
    "increased to",
    "decreased to",
    "dropped to",
    "climbed to",
    "jumped to",
    "slipped to",
    "went up to",
  ),
  ...verbs("prepositional", "with", "at", "of", "for"),
];

/** A word order: how a row label, a column label, a verb phrase and a number make a sentence. */
export interface WordOrder {
  name: string;
  /** False for the forms that take no verb (a colon, a parenthesis): they are written once per cell. */
  verbal: boolean;
  write: (row: string, column: string, verb: string, number: string) => string;
}

/** Eight orders with a verb and two without. */
export const WORD_ORDERS: readonly WordOrder[] = [
  { name: "row first", verbal: true, write: (r, c, v, n) => `${r} ${c} ${v} ${n}.` },
  { name: "column first", verbal: true, write: (r, c, v, n) => `${c} for ${r} ${v} ${n}.` },
  { name: "row set first", verbal: true, write: (r, c, v, n) => `For ${r}, ${c} ${v} ${n}.` },
  { name: "column set first", verbal: true, write: (r, c, v, n) => `Under ${c}, ${r} ${v} ${n}.` },
  { name: "column trailing (under)", verbal: true, write: (r, c, v, n) => `${r} ${v} ${n} under ${c}.` },
  {
    name: "column trailing (in the … column)",
    verbal: true,
    write: (r, c, v, n) => `${r} ${v} ${n} in the ${c} column.`,
  },
  { name: "number first", verbal: true, write: (r, c, v, n) => `${n} is the ${c} figure ${r} ${v}.` },
  { name: "column in parentheses", verbal: true, write: (r, c, v, n) => `${r} (${c}) ${v} ${n}.` },
  { name: "colon", verbal: false, write: (r, c, _v, n) => `${r} ${c}: ${n}` },
  { name: "parenthesis and colon", verbal: false, write: (r, c, _v, n) => `${r} (${c}): ${n}` },
];

/** What a generated claim tests. */
export type WordingKind =
  | "named cell kept"
  | "other column dropped"
  | "other row dropped"
  | "two cells kept"
  | "two cells, one from another row, dropped"
  | "two cells swapped, dropped";

/** One generated claim about a table's row, and whether the `row` check must keep it. */
export interface WordingCase {
  kind: WordingKind;
  verb: string;
  order: string;
  claim: string;
  /** The whole source text (the markdown table) and the quote's range: the named row's line. */
  text: string;
  quote: Range;
  keep: boolean;
}

/** A cell of one number, named by its row label and column label. */
interface NumberCell {
  row: number;
  column: number;
  key: string;
  /** The cell's text as a claim writes it (spaces collapsed). */
  written: string;
}

/** A table's cells the generator may claim, and its labels. */
export interface WordingTable {
  text: string;
  rowLabels: string[];
  headers: string[];
  /** Per row, its line's range. */
  lines: Range[];
  /** The cells of one number whose row and column labels are unambiguous, by row then column. */
  cells: NumberCell[];
  /** Cells left out because a careful reader would call a label ambiguous. */
  ambiguous: number;
  /** Cells left out because a label holds a number of a shape the generator does not cover. */
  uncovered: number;
}

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();
const keysOf = (text: string): string[] => findNumbers(text).map((number) => number.key);
// A label without footnote marks (`2019 (1)`, `total*`), folded: twins that differ by one are ambiguous.
const bare = (label: string): string =>
  foldLabelText(label)
    .replace(/\(\d\)|[*†‡]/g, "")
    .replace(/\s+/g, " ")
    .trim();
// The label's words, padded, so that `total` is found inside `total sales` but not inside `totals`.
const padded = (label: string): string =>
  ` ${bare(label)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim()} `;

// A month, then a day and a year: a date's day is no value (`June 30, 2018`).
const DAY = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(?=,? (?:19|20)\d\d\b)/g;

/**
 * True when the numbers a label holds are of the shapes the generator covers: years (`2019 €m`), dates
 * (`July 27, 2019`), footnote marks (`(1)`) and codes glued to a letter (`Q3`). Labels holding other
 * numbers (`1-3 Years`, `More Than 5 Years`, `Round of 32`) are left out and counted apart.
 */
export function plainNumbers(label: string): boolean {
  const rest = foldLabelText(label)
    .replace(DAY, " ")
    .replace(/\((?:\d|note \d+)\)|\b(?:19|20)\d\d\b|\b[a-z]\d\b/g, " ");
  return !/\d/.test(rest);
}

/**
 * True when a careful reader could not tell which label the claim names: it is empty, has no letter and no
 * four-digit year, is a twin of another label but for a footnote mark, or its words occur inside another
 * label (`total` beside `total sales`, `league` beside `league cup`).
 */
function ambiguousLabel(label: string, others: readonly string[]): boolean {
  const own = padded(label);
  if (own.trim() === "" || !/\p{L}|\b\d{4}\b/u.test(label)) return true;
  return others.some((other) => {
    const theirs = padded(other);
    return theirs.includes(own) || own.includes(theirs);
  });
}

/** Reads a markdown table for the generator; undefined when it holds no table. */
export function readWordingTable(text: string): WordingTable | undefined {
  const table = parseMarkdownTables(text)[0];
  if (table === undefined) return undefined;
  const headers = table.header.map((cell) => collapse(cell.text));
  const rowLabels = table.rows.map((row) => collapse(row[0]?.text ?? ""));
  const labels = [...rowLabels, ...headers.slice(1)];
  const unclear = (label: string, at: number): "ambiguous" | "uncovered" | undefined =>
    ambiguousLabel(
      label,
      labels.filter((_, other) => other !== at),
    )
      ? "ambiguous"
      : plainNumbers(label)
        ? undefined
        : "uncovered";
  const rowUnclear = rowLabels.map((label, at) => unclear(label, at));
  const columnUnclear = headers.map((label, at) =>
    at === 0 ? "ambiguous" : unclear(label, rowLabels.length + at - 1),
  );
  const lines: Range[] = table.rows.map((row) => {
    const start = text.lastIndexOf("\n", row[0]?.start ?? 0) + 1;
    const newline = text.indexOf("\n", start);
    return [start, newline < 0 ? text.length : newline];
  });
  const labelKeys = new Set(labels.flatMap(keysOf));
  const cells: NumberCell[] = [];
  let ambiguous = 0;
  let uncovered = 0;
  table.rows.forEach((row, rowAt) => {
    row.forEach((cell, column) => {
      if (column === 0) return;
      const keys = keysOf(cell.text);
      // Numbers with a currency, a sign or a unit (`$ 1,452.4`, `(182,601)`, `7%`); no letters.
      if (keys.length !== 1 || cell.text.length > 24 || /\p{L}/u.test(cell.text)) return;
      // A value that reads as a year (four digits from 1000 to 2999 with no separator: `1958`, `2012 -`)
      // or a date (`31.05.2010`) takes no column named after it (R8): not covered.
      if (/(?:^|[^\d.,])[12]\d{3}(?:$|[^\d.,]|[.,](?!\d))|\d[./-]\d{1,2}[./-]\d/.test(cell.text.trim())) {
        uncovered += 1;
        return;
      }
      const why = rowUnclear[rowAt] ?? columnUnclear[column];
      if (why === "uncovered") uncovered += 1;
      else if (why === "ambiguous" || labelKeys.has(keys[0] as string)) ambiguous += 1;
      if (why !== undefined || labelKeys.has(keys[0] as string)) return;
      cells.push({ row: rowAt, column, key: keys[0] as string, written: collapse(cell.text) });
    });
  });
  return { text, rowLabels, headers, lines, cells, ambiguous, uncovered };
}

/** The cell's neighbours: one of another column in its row and one of another row in its column, if any. */
function neighbours(table: WordingTable, cell: NumberCell): { column?: NumberCell; row?: NumberCell } {
  const distinct = (other: NumberCell) => other.key !== cell.key;
  const inRow = table.cells.filter((other) => other.row === cell.row && other.column !== cell.column);
  const inColumn = table.cells.filter((other) => other.column === cell.column && other.row !== cell.row);
  // The nearest one after it, else before it: every column and row takes its turn across the cells.
  const nearest = (list: NumberCell[], at: (other: NumberCell) => number, from: number) =>
    list.filter(distinct).find((other) => at(other) > from) ?? list.filter(distinct).at(-1);
  const column = nearest(inRow, (other) => other.column, cell.column);
  const row = nearest(inColumn, (other) => other.row, cell.row);
  return { ...(column ? { column } : {}), ...(row ? { row } : {}) };
}

/**
 * True when a word of the verb phrase is a form of a word of a column header (`recorded` beside a
 * `Record` column, `totaled` beside `Total`): the claim then names that column too, and a careful reader
 * could take either. Such claims are left out.
 */
export function verbNamesHeader(table: WordingTable, verb: VerbPhrase): boolean {
  const stems = new Set(
    table.headers.flatMap((header) =>
      foldLabelText(header)
        .split(/[^\p{L}]+/u)
        .map(headerStem),
    ),
  );
  return verb.text.split(" ").some((word) => stems.has(headerStem(word)));
}

/** The claims of one cell in one word order and verb phrase: its own number and its neighbours'. */
export function cellWordings(
  table: WordingTable,
  cell: NumberCell,
  order: WordOrder,
  verb: VerbPhrase,
): WordingCase[] {
  if (order.verbal && verbNamesHeader(table, verb)) return [];
  const rowLabel = table.rowLabels[cell.row] as string;
  const header = (at: number) => table.headers[at] as string;
  const base = { verb: order.verbal ? verb.text : "(none)", order: order.name, text: table.text };
  const quote = table.lines[cell.row] as Range;
  const one = (kind: WordingKind, number: string, keep: boolean): WordingCase => ({
    ...base,
    kind,
    claim: order.write(rowLabel, header(cell.column), verb.text, number),
    quote,
    keep,
  });
  const cases = [one("named cell kept", cell.written, true)];
  const { column, row } = neighbours(table, cell);
  if (column !== undefined) cases.push(one("other column dropped", column.written, false));
  if (row !== undefined) cases.push(one("other row dropped", row.written, false));
  if (column !== undefined && order.name === "row first") {
    // Two numbers, each for its own column of the named row.
    const two = (kind: WordingKind, first: string, second: string, keep: boolean): WordingCase => ({
      ...base,
      kind,
      claim: `${rowLabel} ${header(cell.column)} ${verb.text} ${first} and ${header(column.column)} ${verb.text} ${second}.`,
      quote,
      keep,
    });
    cases.push(two("two cells kept", cell.written, column.written, true));
    cases.push(two("two cells swapped, dropped", column.written, cell.written, false));
    if (row !== undefined)
      cases.push(two("two cells, one from another row, dropped", row.written, column.written, false));
  }
  return cases;
}

/** Every claim of a table: each cell in every word order, with every verb phrase where the order has one. */
export function* tableWordings(table: WordingTable): Generator<WordingCase> {
  for (const cell of table.cells) {
    for (const order of WORD_ORDERS) {
      for (const verb of order.verbal ? VERB_PHRASES : VERB_PHRASES.slice(0, 1))
        yield* cellWordings(table, cell, order, verb);
    }
  }
}

// Each table is prepared once and reused by all its claims, as a request's claims share their sources.
const prepared = new Map<string, ReadonlyMap<string, PreparedSource>>();

/** What the `row` check answers for a case: kept, or the reason it was dropped. */
export function judgeWording(each: WordingCase): { kept: boolean; reason?: string } {
  let sources = prepared.get(each.text);
  if (sources === undefined) {
    sources = prepareSources([{ id: "t", text: each.text }]);
    prepared.set(each.text, sources);
  }
  const [verdict] = judgeClaims(
    sources,
    [{ claim: each.claim, quote: each.text.slice(each.quote[0], each.quote[1]), source: "t" }],
    { checkNumbers: "row" },
  );
  if (verdict === undefined) throw new Error("no verdict");
  return verdict.grounded ? { kept: true } : { kept: false, reason: verdict.unsupported.reason };
}

/** True when the check answers as the case says: kept, or dropped with `number_not_found`. */
export function holds(each: WordingCase): boolean {
  const { kept, reason } = judgeWording(each);
  return each.keep ? kept : !kept && reason === "number_not_found";
}
