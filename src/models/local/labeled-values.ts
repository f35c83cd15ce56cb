import { type Source, type Span, splitBlocks, splitRowCells, splitWords } from "../../core/index.js";
import { labelTerms } from "./terms.js";

/**
 * Where a value was found: after a `label: value` line (`line`), after `label is` in a sentence
 * (`prose`), beside a row's first cell (`table-row`), under a column header (`table-column`), or at a
 * row and column (`table-cell`, labelled with the row's first cell and the column header).
 */
export type LabelKind = "line" | "prose" | "table-row" | "table-column" | "table-cell";

/** A value and the label in front of it. Invariant: `value === sourceText.slice(start, end)`. */
export interface LabeledValue {
  source: string;
  /** The label's terms in reading order (see `labelTerms`). */
  label: string[];
  kind: LabelKind;
  value: string;
  start: number;
  end: number;
}

// `label: value`, `label：value`, `label = value`, `label — value`, `label - value`, `label<TAB>value`.
// A colon needs whitespace after it (past a closing `**`), so times (10:30) and URLs are not labels.
// The alternatives that start with spaces start only where a run of spaces and tabs starts: tried from every
// position inside a long run, `[ \t]*` rescanned the rest of it each time (O(n²) on a line of spaces). A match
// inside a run is impossible anyway: what may follow the spaces follows them wherever they start.
const SEPARATOR =
  /(?<![ \t])[ \t]*(?::(?=[*_]*(?:[ \t]|$))|：|=)[ \t]*|(?<![ \t])[ \t]*[—–][ \t]*|(?<![ \t])[ \t]+-[ \t]+|\t+/g;
// Where a label begins: after the previous pair's delimiter or a sentence end.
const LABEL_START = /[;|,]|[ \t]{2,}|[.!?][ \t]/g;
// Where a value on a label line may end: a delimiter, or a comma and spaces, which end it before the next
// `label:` only (at most 40 characters on, no `,;:` between; read by `lineValueEnd`, not a look-ahead).
const LINE_VALUE_END = /;|[ \t]\|[ \t]|\t|[ \t]{2,}|,[ \t]+/g;
const NEXT_LABEL = /[^,;:]{1,40}(?::[ \t]|：)/y;
const LABEL_COLON = /:[ \t]|：/y;
// Copulas that make a sentence a label and a value: "The chief executive is Jane Doe."
const PROSE_VERBS: ReadonlySet<string> = new Set(["is", "are", "was", "were", "ist", "sind", "betragt"]);
// A cheap test that a line may hold one of them, before splitting it into words.
const PROSE_VERB = /\b(?:is|are|was|were|ist|sind)\b|betr(?:ä|a\u0308|a)gt/i;
const CLAUSE_START = /[,;(:—–]|[.!?](?=\s)/g;
const CLAUSE_END = /,\s|;|\s\(|[.!?](?=\s|$)|[。！？|]/g;
const HAS_WORD = /[\p{L}\p{N}]/u;
const MAX_LABEL_WORDS = 6;
const MAX_VALUE_LENGTH = 200;

/**
 * Finds every labelled value in the sources: `label: value` lines (and a value alone on the next line
 * after `label:`), `label is value` clauses, and markdown table cells labelled by their row's first
 * cell and their column header. Values are trimmed of whitespace, markdown emphasis and trailing
 * punctuation, and are exact slices of their source. Sorted by source, then position.
 */
export function findLabeledValues(sources: readonly Source[]): LabeledValue[] {
  const found: LabeledValue[] = [];
  const seenIds = new Set<string>();
  for (const source of sources) {
    if (seenIds.has(source.id)) continue;
    seenIds.add(source.id);
    const fromSource: LabeledValue[] = [];
    for (const block of splitBlocks(source.text)) {
      if (block.kind === "table") {
        addTable(source, block.header, block.rows, fromSource);
        continue;
      }
      addLine(source, block.line, block.next, fromSource);
      addProse(source, block.line, fromSource);
    }
    fromSource.sort((left, right) => left.start - right.start);
    found.push(...fromSource);
  }
  return found;
}

/** Narrows `[start, end)` while the characters at its ends match `strip`. */
function trimSpan(text: string, start: number, end: number, strip: RegExp): Span {
  let from = start;
  let to = end;
  while (from < to && strip.test(text.charAt(from))) from++;
  while (to > from && strip.test(text.charAt(to - 1))) to--;
  return { start: from, end: to };
}

// Whitespace and markdown emphasis at both ends; trailing punctuation too.
const EDGE = /[\s*_`]/;
const TRAILING = /[\s*_`.,;:]/;

/** The value in `[start, end)` without its decoration, or null when nothing word-like is left. */
function valueSpan(text: string, start: number, end: number): Span | null {
  const inner = trimSpan(text, start, end, EDGE);
  let to = inner.end;
  while (to > inner.start && TRAILING.test(text.charAt(to - 1))) to--;
  const value = text.slice(inner.start, to);
  if (!HAS_WORD.test(value) || value.length > MAX_VALUE_LENGTH) return null;
  return { start: inner.start, end: to };
}

function push(found: LabeledValue[], source: Source, label: string[], kind: LabelKind, span: Span | null) {
  if (span === null || label.length === 0) return;
  const value = source.text.slice(span.start, span.end);
  found.push({ source: source.id, label, kind, value, start: span.start, end: span.end });
}

/** `label: value` pairs on one line; a lone `label:` takes the next line as its value. */
function addLine(source: Source, line: Span, nextLine: Span | null, found: LabeledValue[]): void {
  const text = source.text;
  const lineText = text.slice(line.start, line.end);
  let cursor = 0;
  SEPARATOR.lastIndex = 0;
  for (let separator = SEPARATOR.exec(lineText); separator !== null; separator = SEPARATOR.exec(lineText)) {
    if (separator.index < cursor) continue;
    const labelStart = lastMatchEnd(LABEL_START, lineText, cursor, separator.index);
    const words = splitWords(lineText.slice(labelStart, separator.index));
    const valueStart = separator.index + separator[0].length;
    const valueEnd = lineValueEnd(lineText, valueStart);
    cursor = valueEnd;
    SEPARATOR.lastIndex = Math.max(SEPARATOR.lastIndex, valueEnd);
    if (words.length === 0 || words.length > MAX_LABEL_WORDS) continue;
    const label = labelTerms(lineText.slice(labelStart, separator.index));
    let span = valueSpan(text, line.start + valueStart, line.start + valueEnd);
    const lineEndsAtSeparator = !HAS_WORD.test(lineText.slice(valueStart)) && /[:：]/.test(separator[0]);
    if (span === null && lineEndsAtSeparator && nextLine !== null) {
      if (text.charCodeAt(nextLine.start) !== 0x7c) span = valueSpan(text, nextLine.start, nextLine.end);
    }
    push(found, source, label, "line", span);
  }
}

/** `label is value` clauses: the words before the verb (to the clause start) label the words after it. */
function addProse(source: Source, line: Span, found: LabeledValue[]): void {
  const text = source.text;
  const lineText = text.slice(line.start, line.end);
  if (!PROSE_VERB.test(lineText)) return;
  const words = splitWords(lineText);
  for (const verb of words) {
    if (!PROSE_VERBS.has(verb.word)) continue;
    const clauseStart = lastMatchEnd(CLAUSE_START, lineText, 0, verb.start);
    const labelWords = words.filter((word) => word.start >= clauseStart && word.end <= verb.start);
    const first = labelWords[Math.max(0, labelWords.length - MAX_LABEL_WORDS)];
    if (first === undefined) continue;
    const label = labelTerms(lineText.slice(first.start, verb.start));
    const valueEnd = firstMatchStart(CLAUSE_END, lineText, verb.end);
    push(found, source, label, "prose", valueSpan(text, line.start + verb.end, line.start + valueEnd));
  }
}

/** A markdown table: cells labelled by header and first cell, or key/value rows. */
function addTable(
  source: Source,
  headerRow: Span | null,
  rows: readonly Span[],
  found: LabeledValue[],
): void {
  const text = source.text;
  const header =
    headerRow === null
      ? []
      : splitRowCells(text, headerRow.start, headerRow.end).map((cell) => cellLabel(text, cell));
  for (const row of rows) {
    const cells = splitRowCells(text, row.start, row.end);
    const rowLabel = cells[0] === undefined ? [] : cellLabel(text, cells[0]);
    cells.forEach((cell, column) => {
      const span = valueSpan(text, cell.start, cell.end);
      const columnLabel = header[column] ?? [];
      push(found, source, columnLabel, "table-column", span);
      if (column === 0) return;
      if (columnLabel.length > 0 && rowLabel.length > 0) {
        push(found, source, [...rowLabel, ...columnLabel], "table-cell", span);
      }
      if (column === 1 && cells.length === 2) push(found, source, rowLabel, "table-row", span);
    });
  }
}

function cellLabel(text: string, cell: Span): string[] {
  return labelTerms(text.slice(cell.start, cell.end));
}

/** The end of the last match of `pattern` within `text[from, to)`, or `from`. */
function lastMatchEnd(pattern: RegExp, text: string, from: number, to: number): number {
  let end = from;
  const part = text.slice(from, to);
  for (const match of part.matchAll(pattern)) end = from + match.index + match[0].length;
  return end;
}

/** The start of the first match of `pattern` in `text` at or after `from`, or the text's length. */
/**
 * Where the value that starts at `from` of a label line ends: at a delimiter (`;`, ` | `, a tab, two spaces),
 * or at a comma followed by spaces and the next `label:` within 40 characters. O(line): each comma reads
 * at most 42 characters past its spaces.
 */
export function lineValueEnd(line: string, from: number): number {
  LINE_VALUE_END.lastIndex = from;
  for (let end = LINE_VALUE_END.exec(line); end !== null; end = LINE_VALUE_END.exec(line)) {
    if (!end[0].startsWith(",")) return end.index;
    const spacesEnd = end.index + end[0].length;
    // The label may also start on the last space, right before its colon (`,  : x`), if one space is left.
    if (
      readsAt(NEXT_LABEL, line, spacesEnd) ||
      (end[0].length > 2 && readsAt(LABEL_COLON, line, spacesEnd))
    ) {
      return end.index;
    }
    LINE_VALUE_END.lastIndex = end.index + 1;
  }
  return line.length;
}

/** True when the sticky `pattern` matches at `index` of `text`. */
function readsAt(pattern: RegExp, text: string, index: number): boolean {
  pattern.lastIndex = index;
  return pattern.test(text);
}

function firstMatchStart(pattern: RegExp, text: string, from: number): number {
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? text.length : match.index;
}
