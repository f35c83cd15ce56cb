import { getOrMake } from "../lists.js";
import type { TableLayout } from "../tables/index.js";
import { foldLabelText, stripTrailingParenthetical } from "../tables/index.js";
import { codePointAt, isWordChar, wordEnd } from "../text/index.js";
import { codeClass, isDigitCode, isLetterCode, ruleOn } from "../wording/index.js";

/** A folded label text of one table, and the body rows and header columns it names. */
export interface LabelEntry {
  pattern: string;
  /** True for a label of symbols only (`$`, `%`, `±%`): it names only where no number stands beside it. */
  symbolic: boolean;
  table: number;
  rows: readonly number[];
  columns: readonly number[];
}

// Most labels name only rows or only columns: their other list is this shared empty one, not a new array.
const NONE: readonly number[] = [];

/**
 * A source's labels, by `labelKey(pattern)`: through their second word when they have two, so that row
 * labels sharing a first word (`Station 1`, `Station 2`, …) do not all become candidates at each claim word.
 */
export type LabelIndex = Map<string, LabelEntry[]>;

/**
 * The key a folded label is indexed by: the text through its second word (`revenue ($m`), else its only
 * word, else its first character (a label that starts with a symbol).
 */
export function labelKey(pattern: string): string {
  const firstEnd = wordEnd(pattern, 0);
  if (firstEnd === 0) return pattern.charAt(0);
  let second = firstEnd;
  while (second < pattern.length && wordEnd(pattern, second) === second) second += 1;
  return second < pattern.length ? pattern.slice(0, wordEnd(pattern, second)) : pattern.slice(0, firstEnd);
}

function hasWordCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (isWordChar(codePointAt(text, index))) return true;
  return false;
}

// Label `label` of a table is row `label` below `rowCount`, else column `label - rowCount`.
function addLabel(
  entries: Map<string, LabelEntry>,
  pattern: string,
  table: number,
  label: number,
  rowCount: number,
) {
  let entry = entries.get(pattern);
  if (entry === undefined) {
    entry = { pattern, symbolic: !hasWordCharacter(pattern), table, rows: NONE, columns: NONE };
    entries.set(pattern, entry);
  }
  // Each entry's lists are its own (entries are made afresh per table): appending in place keeps a table
  // of R rows sharing one label at O(R), where copying the list for every row was O(R²).
  if (label < rowCount) {
    if (entry.rows === NONE) entry.rows = [label];
    else (entry.rows as number[]).push(label);
  } else if (entry.columns === NONE) entry.columns = [label - rowCount];
  else (entry.columns as number[]).push(label - rowCount);
}

// A header of `high` and one noun (`high points`, `high rebounds`: a game log's best player) is also named
// by its noun (`scored 23 points`), unless another label of the table is that noun.
function addQualifiedHeads(
  entries: Map<string, LabelEntry>,
  texts: readonly string[],
  rowCount: number,
  table: number,
): void {
  for (let label = rowCount; label < texts.length; label += 1) {
    const folded = foldLabelText(texts[label] as string).trim();
    if (!folded.startsWith("high ")) continue;
    const noun = folded.slice(5);
    if (noun.includes(" ") || entries.has(noun)) continue;
    addLabel(entries, noun, table, label, rowCount);
  }
}

// What a cell that numbers its row is made of: `7`, `t3` (a tie), `1 =`, `12.`.
const isRankCode = codeClass("0123456789 .,=t-");

function numbersItsRow(cell: string): boolean {
  let digit = false;
  for (let index = 0; index < cell.length; index += 1) {
    const code = cell.charCodeAt(index);
    if (!isRankCode(code)) return false;
    if (isDigitCode(code)) digit = true;
  }
  return digit;
}

/**
 * R44: a table whose first column numbers its rows (a rank, a position, a game, a pick) names each row by
 * its first column whose every cell starts with a letter as well (`| 7 | ellesmere port & neston | 34 |`
 * is the row of `ellesmere port & neston`). Reads one column per table.
 */
function addNameCells(
  entries: Map<string, LabelEntry>,
  { rowLabels, header, cellOffsets }: TableLayout,
  text: string,
  table: number,
): void {
  const rows = rowLabels.length;
  const columns = header.length;
  if (rows === 0) return;
  for (const first of rowLabels) if (!numbersItsRow(foldLabelText(first.text).trim())) return;
  for (let column = 1; column < columns; column += 1) {
    const names: string[] = [];
    for (let row = 0; row < rows; row += 1) {
      const slot = (row * columns + column) * 2;
      const name = foldLabelText(text.slice(cellOffsets[slot], cellOffsets[slot + 1])).trim();
      if (name === "" || !isLetterCode(name.charCodeAt(0))) break;
      names.push(name);
    }
    if (names.length < rows) continue;
    if (new Set(names).size < rows) continue;
    // A name that is also a header (a column) stays that header's.
    for (let row = 0; row < rows; row += 1)
      if ((entries.get(names[row] as string)?.columns.length ?? 0) === 0)
        addLabel(entries, names[row] as string, table, row, rows);
    return;
  }
}

// R47: a label with brackets is also named with a space just inside them (`xe ( 2009 )` names `xe (2009)`),
// and one with ` + ` with `&` in its place (`single & double` names `single + double`), unless another label
// of the table is that text. Each label is read once.
function addWrittenVariants(entries: Map<string, LabelEntry>, rowCount: number, table: number): void {
  for (const entry of [...entries.values()]) {
    const { pattern } = entry;
    if (!pattern.includes("(") && !pattern.includes("+")) continue;
    for (const variant of [
      pattern.replace(/\( ?/g, "( ").replace(/ ?\)/g, " )"),
      pattern.replaceAll(" + ", " & "),
    ]) {
      if (variant === pattern || entries.has(variant)) continue;
      for (const row of entry.rows) addLabel(entries, variant, table, row, rowCount);
      for (const column of entry.columns) addLabel(entries, variant, table, rowCount + column, rowCount);
    }
  }
}

/**
 * Indexes the row labels (first cell of each body row) and column labels (header cells) of `tables`.
 * A label also stands without its trailing parenthetical, unless another label of that table is exactly
 * the shorter text. Empty labels name nothing.
 */
export function buildLabelIndex(tables: readonly TableLayout[], text?: string): LabelIndex {
  const index: LabelIndex = new Map();
  // One map and set reused across tables: a long source holds many small tables.
  const entries = new Map<string, LabelEntry>();
  const whole = new Set<string>();
  for (let table = 0; table < tables.length; table += 1) {
    const { header, rowLabels } = tables[table] as TableLayout;
    // Row labels first, then column labels: label `k` is row `k` below rowCount, else column `k - rowCount`.
    const texts = [...rowLabels, ...header].map((cell) => cell.text);
    const rowCount = rowLabels.length;
    entries.clear();
    whole.clear();
    for (let label = 0; label < texts.length; label += 1) {
      const pattern = foldLabelText(texts[label] as string).trim();
      if (pattern !== "") addLabel(entries, pattern, table, label, rowCount);
    }
    let wholeKnown = false;
    for (let label = 0; label < texts.length; label += 1) {
      const shorter = stripTrailingParenthetical(texts[label] as string);
      if (shorter === null) continue;
      // Taken only for a table that has a parenthetical: most have none.
      if (!wholeKnown) {
        for (const pattern of entries.keys()) whole.add(pattern);
        wholeKnown = true;
      }
      const pattern = foldLabelText(shorter).trim();
      if (pattern !== "" && !whole.has(pattern)) addLabel(entries, pattern, table, label, rowCount);
    }
    if (ruleOn("R47")) addWrittenVariants(entries, rowCount, table);
    if (ruleOn("R38")) addQualifiedHeads(entries, texts, rowCount, table);
    if (text !== undefined && ruleOn("R44")) addNameCells(entries, tables[table] as TableLayout, text, table);
    for (const entry of entries.values()) {
      getOrMake(index, labelKey(entry.pattern), () => []).push(entry);
    }
  }
  return index;
}
