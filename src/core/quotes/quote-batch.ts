import type { PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import { firstOccurrencesOfIds } from "../text/index.js";
import type { MatchMode, Range } from "../types.js";
import { lenientIndexOf, lenientRange, readLenientQuote } from "./lenient-match.js";
import { tokenizeStrictQuotes, tokenizeStrictSource } from "./strict-tokens.js";

const NO_PATTERN = new Int32Array(0);

/**
 * Finds many trimmed, non-empty quotes in one source at once: the same range or null for each as
 * `findStrictQuoteInSource` or `findLenientQuote` gives it alone, in O(n + Σm) steps (up to a log factor)
 * however many quotes there are, where one at a time costs up to O(n) each. Both modes compare token ids:
 * lenient tokens, or strict ones (`strict-tokens.ts`), a token-aligned run being exactly a boundary-exact
 * strict match.
 */
export function findQuotesAtOnce(
  source: PreparedSource,
  quotes: readonly string[],
  mode: MatchMode,
  counter?: StepCounter,
): (Range | null)[] {
  return mode === "lenient"
    ? findLenientQuotesAtOnce(source, quotes, counter)
    : findStrictQuotesAtOnce(source, quotes, counter);
}

function findStrictQuotesAtOnce(
  source: PreparedSource,
  quotes: readonly string[],
  counter?: StepCounter,
): (Range | null)[] {
  const quoteTokens = tokenizeStrictQuotes(quotes);
  const sourceTokens = tokenizeStrictSource(source.text, quoteTokens);
  if (counter !== undefined) {
    counter.steps += source.text.length;
    for (const quote of quotes) counter.steps += quote.length;
  }
  const { patterns } = quoteTokens;
  const firsts = firstOccurrencesOfIds(sourceTokens.ids, patterns, quoteTokens.alphabetSize, counter);
  return patterns.map((pattern, at) => {
    const first = firsts[at] as number;
    if (first < 0) return null;
    // The quote is trimmed: its last token is not whitespace, so the next token starts where it ends.
    return [sourceTokens.starts[first] as number, sourceTokens.starts[first + pattern.length] as number];
  });
}

function findLenientQuotesAtOnce(
  source: PreparedSource,
  quotes: readonly string[],
  counter?: StepCounter,
): (Range | null)[] {
  const index = lenientIndexOf(source, counter);
  const read = quotes.map((quote) => {
    const quoteRead = readLenientQuote(quote, index);
    if (counter !== undefined) counter.steps += quote.length + (quoteRead?.tokenCount ?? 0);
    return quoteRead;
  });
  const patterns = read.map((quote) => quote?.pattern ?? NO_PATTERN);
  const firsts = firstOccurrencesOfIds(index.ids, patterns, index.idByKey.size, counter);
  return read.map((quote, at) => {
    const first = firsts[at] as number;
    return quote === null || first < 0 ? null : lenientRange(source.text, index, quote, first);
  });
}
