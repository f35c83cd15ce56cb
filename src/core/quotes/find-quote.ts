import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { MatchMode, Range } from "../types.js";
import { findLenientQuote } from "./lenient-match.js";
import { findStrictQuoteInSource } from "./strict-match.js";

/**
 * Finds the first match of `quote` in `source` under `mode`, or null. The range satisfies
 * `source.text.slice(range[0], range[1])` being the matched source text.
 */
export function findQuote(source: PreparedSource, quote: string, mode: MatchMode): Range | null {
  const trimmed = trimQuote(quote);
  if (trimmed === "") return null;
  // Many claims of a request often quote the same text: each distinct quote is searched once per source.
  const results = resultsOf(source);
  const key = `${mode === "lenient" ? "l" : "s"}${trimmed}`;
  let range = results.get(key);
  if (range === undefined) {
    range = mode === "lenient" ? findLenientQuote(source, trimmed) : findStrictQuoteInSource(source, trimmed);
    results.set(key, range);
  }
  return range === null ? null : [range[0], range[1]];
}

const resultsOf = memoizePerSource(() => new Map<string, Range | null>());

// The pairs a model may wrap around a quote; only a matching pair is removed, so an apostrophe that
// merely ends a quote (`the Panthers'`) stays.
const ENCLOSING_PAIRS: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["\u201c", "\u201d"],
  ["'", "'"],
  ["\u2018", "\u2019"],
  ["\u00ab", "\u00bb"],
]);

/** Trims `quote` of surrounding whitespace and of one pair of enclosing quotation marks, then whitespace. */
export function trimQuote(quote: string): string {
  const trimmed = quote.trim();
  if (trimmed.length < 2) return trimmed;
  const closing = ENCLOSING_PAIRS.get(trimmed.charAt(0));
  if (closing === undefined || !trimmed.endsWith(closing)) return trimmed;
  return trimmed.slice(1, -1).trim();
}
