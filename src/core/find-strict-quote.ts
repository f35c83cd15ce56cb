import { codePointBefore } from "./code-point-before.js";
import { type CollapsedText, collapseWhitespace } from "./collapsed-text.js";
import { isWordChar } from "./is-word-char.js";
import { searchString } from "./linear-search.js";
import { memoizePerSource, type PreparedSource } from "./prepared-source.js";
import { splitsSurrogatePair } from "./splits-surrogate-pair.js";
import type { StepCounter } from "./step-counter.js";
import type { Range } from "./types.js";

const collapsedOf = memoizePerSource((text) => collapseWhitespace(text));

/**
 * Finds the first boundary-exact occurrence of the trimmed `quote` in `text`, where each whitespace run
 * of the quote matches any whitespace run of the text; null when there is none.
 */
export function findStrictQuote(text: string, quote: string, counter?: StepCounter): Range | null {
  return findStrictIn(text, collapseWhitespace(text, counter), quote, counter);
}

/** `findStrictQuote` against a prepared source, whose collapsed text is built once per request. */
export function findStrictQuoteInSource(
  source: PreparedSource,
  quote: string,
  counter?: StepCounter,
): Range | null {
  return findStrictIn(source.text, collapsedOf(source), quote, counter);
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
  const wordAtStart = isWordChar(quote.codePointAt(0));
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
    return !(wordAtEnd && isWordChar(text.codePointAt(end)));
  };
  return searchString(collapsed.text, pattern, accept, counter) < 0 ? null : [start, end];
}
