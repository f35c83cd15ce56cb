// Test-only: the matchers as they were before issue 10 (quadratic in the worst case), kept as the reference
// the linear engine must agree with (see linear-matching.test.ts). Not imported by any production module.

import {
  endsWord,
  type LabelEntry,
  type LabelIndex,
  type LabelOccurrence,
  standsApart,
  startsWord,
  type TableBinding,
} from "./binding/index.js";
import type { FoundNumber } from "./numbers/index.js";

import {
  codePointAt,
  codePointBefore,
  isWhitespaceChar,
  isWordChar,
  type LenientToken,
  splitsSurrogatePair,
  tokenizeLenient,
  wordEnd,
} from "./text/index.js";
import type { Range } from "./types.js";

// --- find-strict-quote.ts

/**
 * Finds the first boundary-exact occurrence of the trimmed `quote` in `text`, where each whitespace run
 * of the quote matches any whitespace run of the text; null when there is none.
 */
export function referenceStrictQuote(text: string, quote: string): Range | null {
  if (quote === "") return null;
  // The quote is trimmed, so splitting on runs leaves only non-empty segments.
  const segments = quote.split(/\s+/u);
  const first = segments[0] ?? "";
  const wordAtStart = isWordChar(codePointAt(quote, 0));
  const wordAtEnd = isWordChar(codePointBefore(quote, quote.length));
  for (let start = text.indexOf(first); start >= 0; start = text.indexOf(first, start + 1)) {
    if (splitsSurrogatePair(text, start)) continue;
    if (wordAtStart && isWordChar(codePointBefore(text, start))) continue;
    const end = matchRemainingSegments(text, start + first.length, segments);
    if (end < 0 || splitsSurrogatePair(text, end)) continue;
    if (wordAtEnd && isWordChar(codePointAt(text, end))) continue;
    return [start, end];
  }
  return null;
}

/** Matches segments 1.. of the quote from `position`, each after one whitespace run; the end or -1. */
function matchRemainingSegments(text: string, position: number, segments: readonly string[]): number {
  let cursor = position;
  for (let index = 1; index < segments.length; index++) {
    const runStart = cursor;
    while (cursor < text.length && isWhitespaceChar(text.charCodeAt(cursor))) cursor++;
    if (cursor === runStart) return -1;
    const segment = segments[index] ?? "";
    if (!text.startsWith(segment, cursor)) return -1;
    cursor += segment.length;
  }
  return cursor;
}

// --- find-lenient-quote.ts

/**
 * Finds the first run of whole source tokens equal to the tokens of the trimmed `quote`; the range
 * covers those tokens, plus the punctuation attached to them at each end where the quote had some.
 */
export function referenceLenientQuote(text: string, quote: string): Range | null {
  const quoteTokens = tokenizeLenient(quote);
  const firstQuoteToken = quoteTokens[0];
  const lastQuoteToken = quoteTokens[quoteTokens.length - 1];
  if (firstQuoteToken === undefined || lastQuoteToken === undefined) return null;
  const index = referenceLenientIndex(text);
  const keys = quoteTokens.map((token) => token.key);
  const first = firstMatchingToken(index, keys);
  if (first < 0) return null;
  const startToken = index.tokens[first];
  const endToken = index.tokens[first + keys.length - 1];
  if (startToken === undefined || endToken === undefined) return null;
  // The quote is trimmed, so anything before its first token (or after its last) is punctuation.
  const start =
    firstQuoteToken.start > 0
      ? extendBackward(text, startToken.start, index.tokens[first - 1]?.end ?? 0)
      : startToken.start;
  const end =
    lastQuoteToken.end < quote.length
      ? extendForward(text, endToken.end, index.tokens[first + keys.length]?.start ?? text.length)
      : endToken.end;
  return [start, end];
}

/** The index of the first source token where `keys` occur in a row, or -1. */
function firstMatchingToken(index: ReferenceLenientIndex, keys: readonly string[]): number {
  // Anchor on the rarest key: its occurrences are few, and walking them in ascending order still
  // yields the first match in source order.
  let anchor = 0;
  let anchorPositions: readonly number[] | undefined;
  for (let offset = 0; offset < keys.length; offset++) {
    const positions = index.positionsByKey.get(keys[offset] ?? "");
    if (positions === undefined) return -1;
    if (anchorPositions === undefined || positions.length < anchorPositions.length) {
      anchor = offset;
      anchorPositions = positions;
    }
  }
  for (const position of anchorPositions ?? []) {
    const first = position - anchor;
    if (first < 0) continue;
    if (first + keys.length > index.tokens.length) break;
    let offset = 0;
    while (offset < keys.length && index.tokens[first + offset]?.key === keys[offset]) offset++;
    if (offset === keys.length) return first;
  }
  return -1;
}

/** Moves `start` back over the non-whitespace characters attached to it, not into the previous token. */
function extendBackward(text: string, start: number, floor: number): number {
  let cursor = start;
  while (cursor > floor && !isWhitespaceChar(text.charCodeAt(cursor - 1))) {
    cursor -= (codePointBefore(text, cursor) ?? 0) > 0xffff ? 2 : 1;
  }
  return cursor;
}

/** Moves `end` forward over the non-whitespace characters attached to it, not into the next token. */
function extendForward(text: string, end: number, ceiling: number): number {
  let cursor = end;
  while (cursor < ceiling && !isWhitespaceChar(text.charCodeAt(cursor))) {
    cursor += (codePointAt(text, cursor) ?? 0) > 0xffff ? 2 : 1;
  }
  return cursor;
}

// --- build-lenient-index.ts

/** A source's lenient tokens in order, and where each token key occurs (token indices, ascending). */
interface ReferenceLenientIndex {
  tokens: LenientToken[];
  positionsByKey: Map<string, number[]>;
}

/** Tokenizes `text` once and indexes its tokens by key, so each quote is looked up, not re-scanned. */
function referenceLenientIndex(text: string): ReferenceLenientIndex {
  const tokens = tokenizeLenient(text);
  const positionsByKey = new Map<string, number[]>();
  for (let position = 0; position < tokens.length; position++) {
    const key = tokens[position]?.key ?? "";
    const positions = positionsByKey.get(key);
    if (positions === undefined) positionsByKey.set(key, [position]);
    else positions.push(position);
  }
  return { tokens, positionsByKey };
}

// --- find-named-labels.ts
// The word-boundary and unit rules are shared with the engine (they are O(1) checks, not the search
// under test), so the two differ only in how they find candidate mentions.

function collect(
  folded: string,
  start: number,
  candidates: readonly LabelEntry[] | undefined,
  found: LabelOccurrence[],
): void {
  if (candidates === undefined) return;
  for (const entry of candidates) {
    const end = start + entry.pattern.length;
    if (!folded.startsWith(entry.pattern, start) || !endsWord(folded, end)) continue;
    if (!entry.symbolic || standsApart(folded, start, end)) {
      found.push({ start, end, table: entry.table, rows: entry.rows, columns: entry.columns });
    }
  }
}

function byTableThenLongest(a: LabelOccurrence, b: LabelOccurrence): number {
  return a.table - b.table || b.end - b.start - (a.end - a.start) || a.start - b.start;
}

// Puts the last table's winners, `list[from…]`, back in claim order: an insertion sort, as runs are tiny.
function sortRun(list: LabelOccurrence[], from: number): void {
  for (let index = from + 1; index < list.length; index += 1) {
    const occurrence = list[index] as LabelOccurrence;
    let at = index;
    while (at > from && (list[at - 1] as LabelOccurrence).start > occurrence.start) {
      list[at] = list[at - 1] as LabelOccurrence;
      at -= 1;
    }
    list[at] = occurrence;
  }
}

function overlaps(a: LabelOccurrence, b: LabelOccurrence): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * The labels a folded claim names, at word boundaries: per table, where occurrences overlap the longest
 * wins (then the leftmost), so `net revenue` is named rather than `revenue` inside it. Ordered by table,
 * then in claim order.
 */
export function referenceNamedLabels(folded: string, index: LabelIndex): LabelOccurrence[] {
  if (index.size === 0) return [];
  const found: LabelOccurrence[] = [];
  let start = 0;
  while (start < folded.length) {
    if (folded.charCodeAt(start) === 32) {
      start += 1;
      continue;
    }
    // A label starts at a word (keyed by it, or through the next word) or at a symbol (keyed by it).
    const firstEnd = wordEnd(folded, start);
    if (firstEnd === start) {
      collect(folded, start, index.get(folded.charAt(start)), found);
      start += 1;
      continue;
    }
    if (startsWord(folded, start)) {
      collect(folded, start, index.get(folded.slice(start, firstEnd)), found);
      let second = firstEnd;
      while (second < folded.length && wordEnd(folded, second) === second) second += 1;
      if (second < folded.length)
        collect(folded, start, index.get(folded.slice(start, wordEnd(folded, second))), found);
    }
    start = firstEnd;
  }
  // Resolve overlaps table by table: within a table the longest wins, then the leftmost. A claim names
  // few labels per table, so the quadratic check stays small.
  found.sort(byTableThenLongest);
  const kept: LabelOccurrence[] = [];
  let tableStart = 0;
  for (const occurrence of found) {
    if (kept.length > tableStart && (kept[tableStart] as LabelOccurrence).table !== occurrence.table) {
      sortRun(kept, tableStart);
      tableStart = kept.length;
    }
    let clash = false;
    for (let index = tableStart; index < kept.length && !clash; index += 1) {
      clash = overlaps(kept[index] as LabelOccurrence, occurrence);
    }
    if (!clash) kept.push(occurrence);
  }
  sortRun(kept, tableStart);
  return kept;
}

// --- bind-claim-to-table.ts
/** A `TableBinding` with its values as plain numbers. */
type ReferenceBinding = Omit<TableBinding, "valueNumbers"> & { valueNumbers: FoundNumber[] };

function inside(number: FoundNumber, occurrence: LabelOccurrence): boolean {
  return number.start < occurrence.end && occurrence.start < number.end;
}

/**
 * Binds a claim's numbers to the labels it names in one table (`occurrences` from one table, in claim
 * order). Numbers inside a named label are context; when all are, the last number that is a whole label
 * occurrence by itself is the value and names nothing. An occurrence naming both a row and a column
 * (`Total`) names only a row when the rest names a column and no row, only a column when the rest names a
 * row and no column, and both otherwise.
 */
export function referenceBindClaimToTable(
  numbers: readonly FoundNumber[],
  occurrences: readonly LabelOccurrence[],
): ReferenceBinding {
  let naming = occurrences;
  let values = numbers.filter((number) => !occurrences.some((occurrence) => inside(number, occurrence)));
  if (values.length === 0 && numbers.length > 0) {
    const rowNamed = occurrences.some((each) => each.rows.length > 0 && each.columns.length === 0);
    const columnLabels = occurrences.filter((each) => each.columns.length > 0 && each.rows.length === 0);
    for (let index = numbers.length - 1; index >= 0; index -= 1) {
      const number = numbers[index] as FoundNumber;
      const whole = occurrences.find((each) => each.start === number.start && each.end === number.end);
      // The claim's only column label, with a row named, is that column rather than a value.
      const onlyColumn = rowNamed && columnLabels.length === 1 && columnLabels[0] === whole;
      if (whole !== undefined && !onlyColumn) {
        values = [number];
        naming = occurrences.filter((each) => each !== whole);
        break;
      }
    }
  }

  const rows = new Set<number>();
  const columns = new Set<number>();
  const rowLabels: LabelOccurrence[] = [];
  for (const occurrence of naming) {
    let namesRow = occurrence.rows.length > 0;
    let namesColumn = occurrence.columns.length > 0;
    if (namesRow && namesColumn) {
      const rest = naming.filter((each) => each !== occurrence);
      const restNamesRow = rest.some((each) => each.rows.length > 0);
      const restNamesColumn = rest.some((each) => each.columns.length > 0);
      if (restNamesColumn && !restNamesRow) namesColumn = false;
      else if (restNamesRow && !restNamesColumn) namesRow = false;
    }
    if (namesRow) for (const row of occurrence.rows) rows.add(row);
    if (namesColumn) for (const column of occurrence.columns) columns.add(column);
    if (namesRow) rowLabels.push(occurrence);
  }
  // Each value's row label: the nearest named before it, else the first named after it.
  const valueRows = values.map((value) => {
    const before = rowLabels.filter((label) => label.end <= value.start);
    const label =
      before.length > 0 ? before[before.length - 1] : rowLabels.find((each) => each.end > value.start);
    return label === undefined ? [] : label.rows;
  });
  return {
    rows: [...rows],
    columns: [...columns],
    values: values.map((number) => number.key),
    valueNumbers: values,
    valueRows,
  };
}
