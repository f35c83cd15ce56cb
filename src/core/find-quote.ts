import { findLenientQuote } from "./find-lenient-quote.js";
import { findStrictQuoteInSource } from "./find-strict-quote.js";
import type { PreparedSource } from "./prepared-source.js";
import { trimQuote } from "./trim-quote.js";
import type { MatchMode, Range } from "./types.js";

/**
 * Finds the first match of `quote` in `source` under `mode`, or null. The range satisfies
 * `source.text.slice(range[0], range[1])` being the matched source text.
 */
export function findQuote(source: PreparedSource, quote: string, mode: MatchMode): Range | null {
  const trimmed = trimQuote(quote);
  if (trimmed === "") return null;
  return mode === "lenient" ? findLenientQuote(source, trimmed) : findStrictQuoteInSource(source, trimmed);
}
