import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { MatchMode, Range } from "../types.js";
import { findLenientQuote } from "./lenient-match.js";
import { findStrictQuoteInSource } from "./strict-match.js";
import { trimQuote } from "./trim-quote.js";

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
