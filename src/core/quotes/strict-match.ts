import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import {
  codePointAt,
  codePointBefore,
  isWhitespaceChar,
  isWordChar,
  searchString,
  splitsSurrogatePair,
} from "../text/index.js";
import type { Range } from "../types.js";
import { type CollapsedText, collapseWhitespace } from "./collapsed-text.js";

const collapsedOf = memoizePerSource((text) => collapseWhitespace(text));

/**
 * Finds the first boundary-exact occurrence of the trimmed `quote` in `text`, where each whitespace run
 * of the quote matches any whitespace run of the text; null when there is none.
 */
export function findStrictQuote(text: string, quote: string, counter?: StepCounter): Range | null {
  return findStrictIn(text, collapseWhitespace(text, counter), quote, counter);
}

/**
 * `findStrictQuote` against a prepared source. Typical quotes are found (or not) fastest by the direct scan
 * with native `indexOf`; it gets a budget of two steps per character of source and quote, and only a
 * quote that exhausts it is searched again linearly, against the collapsed text built once per request.
 * Both give the same answer, and the total stays O(n + m).
 */
export function findStrictQuoteInSource(
  source: PreparedSource,
  quote: string,
  counter?: StepCounter,
): Range | null {
  const budget = FAST_BUDGET * (source.text.length + quote.length);
  const fast = findStrictDirect(source.text, quote, budget, counter);
  if (fast !== undefined) return fast;
  return findStrictIn(source.text, collapsedOf(source, counter), quote, counter);
}

/** Steps per unit of source and quote the direct scan may take before the linear fallback takes over. */
export const FAST_BUDGET = 2;

// The direct scan: each occurrence of the quote's first segment, then its other segments after one
// whitespace run each. Undefined when it would take more than `budget` steps (each unit scanned or compared).
function findStrictDirect(
  text: string,
  quote: string,
  budget: number,
  counter?: StepCounter,
): Range | null | undefined {
  if (quote === "") return null;
  const segments = quote.split(/\s+/u);
  const first = segments[0] ?? "";
  const wordAtStart = isWordChar(codePointAt(quote, 0));
  const wordAtEnd = isWordChar(codePointBefore(quote, quote.length));
  let steps = quote.length;
  let result: Range | null | undefined = null;
  for (let from = 0; ; ) {
    const start = text.indexOf(first, from);
    steps += (start < 0 ? text.length : start) - from + first.length;
    if (start < 0 || steps > budget) {
      if (start >= 0) result = undefined;
      break;
    }
    from = start + 1;
    if (splitsSurrogatePair(text, start)) continue;
    if (wordAtStart && isWordChar(codePointBefore(text, start))) continue;
    let cursor = start + first.length;
    for (let index = 1; index < segments.length && cursor >= 0; index++) {
      const runStart = cursor;
      while (cursor < text.length && isWhitespaceChar(text.charCodeAt(cursor))) cursor++;
      const segment = segments[index] ?? "";
      steps += cursor - runStart + segment.length;
      cursor = cursor === runStart || !text.startsWith(segment, cursor) ? -1 : cursor + segment.length;
    }
    if (steps > budget) {
      result = undefined;
      break;
    }
    if (cursor < 0 || splitsSurrogatePair(text, cursor)) continue;
    if (wordAtEnd && isWordChar(codePointAt(text, cursor))) continue;
    result = [start, cursor];
    break;
  }
  if (counter !== undefined) counter.steps += Math.min(steps, budget);
  return result;
}

// Both texts collapsed, a match is an occurrence of the collapsed quote in the collapsed text: a space of
// the quote meets a whole run of the text, whose neighbours are not whitespace. Occurrences come in source
// order from one linear search, and each one's boundaries are checked in O(1).
function findStrictIn(
  text: string,
  collapsed: CollapsedText,
  quote: string,
  counter?: StepCounter,
): Range | null {
  if (quote === "") return null;
  const pattern = collapseWhitespace(quote, counter).text;
  const wordAtStart = isWordChar(codePointAt(quote, 0));
  const wordAtEnd = isWordChar(codePointBefore(quote, quote.length));
  const { origin } = collapsed;
  let start = -1;
  let end = -1;
  const accept = (position: number): boolean => {
    start = origin === null ? position : (origin[position] as number);
    // The quote is trimmed, so its last unit is not whitespace and maps to exactly one unit of the text.
    const last = position + pattern.length - 1;
    end = (origin === null ? last : (origin[last] as number)) + 1;
    if (splitsSurrogatePair(text, start)) return false;
    if (wordAtStart && isWordChar(codePointBefore(text, start))) return false;
    if (splitsSurrogatePair(text, end)) return false;
    return !(wordAtEnd && isWordChar(codePointAt(text, end)));
  };
  return searchString(collapsed.text, pattern, accept, counter) < 0 ? null : [start, end];
}
