import { type LabelEntry, type LabelIndex, labelKeyAt } from "./build-label-index.js";
import { codePointBefore } from "./code-point-before.js";
import { isWordChar } from "./is-word-char.js";

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

function overlaps(a: LabelOccurrence, b: LabelOccurrence): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * The labels a folded claim names, at word boundaries: per table, where occurrences overlap the longest
 * wins (then the leftmost), so `net revenue` is named rather than `revenue` inside it. In claim order.
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
    const word = labelKeyAt(folded, start, 1) as string;
    if (startsWord(folded, start)) {
      collect(folded, start, index.get(word), found);
      const twoWords = isWordChar(folded.codePointAt(start)) ? labelKeyAt(folded, start, 2) : undefined;
      if (twoWords !== undefined) collect(folded, start, index.get(twoWords), found);
    }
    // A label starts only at a word's start or at a symbol, so the rest of a word is skipped.
    start += word.length;
  }
  // Resolve overlaps table by table; a claim usually names few labels, so the quadratic scan stays small.
  const byTable = new Map<number, LabelOccurrence[]>();
  for (const occurrence of found) {
    const list = byTable.get(occurrence.table);
    if (list === undefined) byTable.set(occurrence.table, [occurrence]);
    else list.push(occurrence);
  }
  const kept: LabelOccurrence[] = [];
  for (const table of [...byTable.keys()].sort((a, b) => a - b)) {
    const longestFirst = (byTable.get(table) as LabelOccurrence[]).sort(
      (a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start,
    );
    const winners: LabelOccurrence[] = [];
    for (const occurrence of longestFirst) {
      if (!winners.some((other) => overlaps(other, occurrence))) winners.push(occurrence);
    }
    kept.push(...winners.sort((a, b) => a.start - b.start));
  }
  return kept;
}
