import { codePointBefore, isWhitespaceChar, isWordChar, splitsSurrogatePair } from "../text/index.js";
import type { Range } from "../types.js";

/**
 * Finds the first boundary-exact occurrence of the trimmed `quote` in `text`, where each whitespace run
 * of the quote matches any whitespace run of the text; null when there is none.
 */
export function findStrictQuote(text: string, quote: string): Range | null {
  if (quote === "") return null;
  // The quote is trimmed, so splitting on runs leaves only non-empty segments.
  const segments = quote.split(/\s+/u);
  const first = segments[0] ?? "";
  const wordAtStart = isWordChar(quote.codePointAt(0));
  const wordAtEnd = isWordChar(codePointBefore(quote, quote.length));
  for (let start = text.indexOf(first); start >= 0; start = text.indexOf(first, start + 1)) {
    if (splitsSurrogatePair(text, start)) continue;
    if (wordAtStart && isWordChar(codePointBefore(text, start))) continue;
    const end = matchRemainingSegments(text, start + first.length, segments);
    if (end < 0 || splitsSurrogatePair(text, end)) continue;
    if (wordAtEnd && isWordChar(text.codePointAt(end))) continue;
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
