import { codePointBefore, isWordChar, wordEnd } from "../text/index.js";
import type { LabelEntry, LabelIndex } from "./label-index.js";

/** Where a claim names a table label, `[start, end)` in the folded claim, and what that label names. */
export interface LabelOccurrence {
  start: number;
  end: number;
  table: number;
  rows: readonly number[];
  columns: readonly number[];
}

function isDigit(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

function isNumberSeparator(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code === 44 || code === 46;
}

// Word boundaries follow the lenient tokens: `.` or `,` between two digits is inside a number, so the
// label `5` is not named by `2.5` and `234` is not named by `1,234`.
function startsWord(folded: string, start: number): boolean {
  if (!isWordChar(folded.codePointAt(start))) return true;
  if (isWordChar(codePointBefore(folded, start))) return false;
  return !(isDigit(folded, start) && isNumberSeparator(folded, start - 1) && isDigit(folded, start - 2));
}

function endsWord(folded: string, end: number): boolean {
  if (!isWordChar(codePointBefore(folded, end))) return true;
  if (isWordChar(folded.codePointAt(end))) return false;
  return !(isDigit(folded, end - 1) && isNumberSeparator(folded, end) && isDigit(folded, end + 1));
}

// A symbol-only label (`$`, `%`) beside a number is that number's unit (`$1,910`, `12 %`, `$ (9,688)`),
// not a name: otherwise every `$29` of a claim would name a `$` column. Spaces, signs and parentheses
// belong to the number's spelling, so they are skipped to find the neighbour.
const SPELLING = new Set([" ", "(", ")", "+", "-", "\u2212"]);

function standsApart(folded: string, start: number, end: number): boolean {
  let before = start - 1;
  while (before >= 0 && SPELLING.has(folded.charAt(before))) before -= 1;
  let after = end;
  while (after < folded.length && SPELLING.has(folded.charAt(after))) after += 1;
  return !isDigit(folded, before) && !isDigit(folded, after);
}

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
export function findNamedLabels(folded: string, index: LabelIndex): LabelOccurrence[] {
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
