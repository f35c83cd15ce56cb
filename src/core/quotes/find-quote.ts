import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import type { MatchMode, Range } from "../types.js";
import { findLenientQuote } from "./lenient-match.js";
import { findQuotesAtOnce } from "./quote-batch.js";
import { FAST_BUDGET, findStrictQuoteInSource } from "./strict-match.js";

/**
 * Finds the first match of `quote` in `source` under `mode`, or null. The range satisfies
 * `source.text.slice(range[0], range[1])` being the matched source text.
 *
 * Within a request, each distinct quote is searched once per source. Quotes are searched one at a time
 * (O(n + m) each, fastest for a few) until those against one source have cost `BATCH_AFTER` steps per
 * source character, or one of them needed the linear fallback; from then on, searching a quote announced
 * by `expectQuotes` finds it with the other announced quotes not searched yet in one pass
 * (`findQuotesAtOnce`, O(n + Σm)), at most `BATCH_QUOTE_CHARS` (or n) characters of quotes a pass. So a
 * request's quotes against a source cost O(n + Σm) in all, however many distinct near misses it holds.
 */
export function findQuote(source: PreparedSource, quote: string, mode: MatchMode): Range | null {
  const trimmed = trimQuote(quote);
  if (trimmed === "") return null;
  const searches = searchesOf(source);
  const { results, expected } = searches[mode];
  let range = results.get(trimmed);
  if (range === undefined) {
    if (searches.counter.steps >= BATCH_AFTER[mode] * source.text.length) searches.atOnce = true;
    if (searches.atOnce && expected.size > 1 && expected.has(trimmed)) {
      searchExpectedAtOnce(source, searches, trimmed, mode);
      range = results.get(trimmed);
    }
    if (range === undefined) {
      const before = searches.counter.steps;
      range =
        mode === "lenient"
          ? findLenientQuote(source, trimmed, searches.counter)
          : findStrictQuoteInSource(source, trimmed, searches.counter);
      results.set(trimmed, range);
      expected.delete(trimmed);
      // A search past the direct scan's budget went through the linear fallback: the mark of a periodic
      // source, where the other quotes would too.
      if (searches.counter.steps - before > FAST_BUDGET * (source.text.length + trimmed.length)) {
        searches.atOnce = true;
      }
    }
  }
  return range === null ? null : [range[0], range[1]];
}

/**
 * Announces the quotes a request will look for in `source` under `mode` (a claim check announces all its
 * claims' quotes first), so that once one-at-a-time searches grow costly the rest are found at once.
 * O(Σm); announcing changes no answer.
 */
export function expectQuotes(source: PreparedSource, quotes: Iterable<string>, mode: MatchMode): void {
  const { results, expected } = searchesOf(source)[mode];
  for (const quote of quotes) {
    const trimmed = trimQuote(quote);
    if (trimmed !== "" && !results.has(trimmed)) expected.add(trimmed);
  }
}

/**
 * Whether a quote of `source` searched alone now would cost more than the request's O(n + Σm) bound
 * allows: once one-at-a-time searches have cost `BATCH_AFTER` steps per source character, quotes are to be
 * searched at once, at least n characters of them a pass. A caller that learns quotes a few at a time (a
 * streamed reply) waits for that many before it searches (`createPendingClaims`). O(1).
 */
export function searchesAtOnce(source: PreparedSource, mode: MatchMode): boolean {
  const searches = searchesOf(source);
  return searches.atOnce || searches.counter.steps >= BATCH_AFTER[mode] * source.text.length;
}

/** The characters a search of `quote` in `source` would still look for: 0 once it was searched. O(m). */
export function unsearchedQuoteChars(source: PreparedSource, quote: string, mode: MatchMode): number {
  const trimmed = trimQuote(quote);
  return searchesOf(source)[mode].results.has(trimmed) ? 0 : trimmed.length;
}

/** The passes at once (`findQuotesAtOnce`) the quote searches of `source` under `mode` have run so far. O(1). */
export function quotePassesAtOnce(source: PreparedSource, mode: MatchMode): number {
  return searchesOf(source)[mode].passes;
}

/** The steps every quote search in `source` has taken so far in this request, passes at once included. */
export function quoteSearchSteps(source: PreparedSource): number {
  return searchesOf(source).counter.steps;
}

/**
 * Steps per source character that one-at-a-time searches of a source may take before announced quotes are
 * found at once. A strict pass at once costs about as much as 30 typical one-at-a-time steps per character
 * (it tokenizes the whole source, where `indexOf` stops at the first hit), so a typical request never pays
 * it; a lenient pass reuses the source's token index and costs far less.
 */
const BATCH_AFTER: Readonly<Record<MatchMode, number>> = { strict: 32, lenient: 8 };

/**
 * Characters of quotes one pass at once takes (or the source's length, if more), so that one pass, which
 * the service cannot cut, holds the event loop for about 10 ms on a 2-core machine. Every pass but the one
 * that takes the last announced quotes takes at least n characters of quotes, so the passes' O(n) each
 * still sum to O(n + Σm). (250,000 made a pass of distinct invented words 60 ms: the larger a batch, the
 * larger the alphabet it interns and the slower each lookup.)
 */
export const BATCH_QUOTE_CHARS = 64_000;

/** One source's quote searches in this request, per mode. */
type QuoteSearches = Record<MatchMode, SearchesInMode> & {
  counter: StepCounter;
  /** Whether announced quotes are now found at once. */
  atOnce: boolean;
};

interface SearchesInMode {
  /** Each searched (trimmed) quote's range or null. */
  results: Map<string, Range | null>;
  /** Quotes announced by `expectQuotes` and not searched yet. */
  expected: Set<string>;
  /** Passes at once run so far. */
  passes: number;
}

const searchesOf = memoizePerSource(
  (): QuoteSearches => ({
    strict: { results: new Map(), expected: new Set(), passes: 0 },
    lenient: { results: new Map(), expected: new Set(), passes: 0 },
    counter: { steps: 0 },
    atOnce: false,
  }),
);

// Finds the announced quote `first` and, in the same pass, other announced quotes of `mode` up to the
// pass's share of characters, in the order they were announced.
function searchExpectedAtOnce(
  source: PreparedSource,
  searches: QuoteSearches,
  first: string,
  mode: MatchMode,
): void {
  const { results, expected } = searches[mode];
  const limit = Math.max(source.text.length, BATCH_QUOTE_CHARS);
  const quotes = [first];
  let chars = first.length;
  for (const other of expected) {
    if (chars >= limit) break;
    if (other === first) continue;
    quotes.push(other);
    chars += other.length;
  }
  const ranges = findQuotesAtOnce(source, quotes, mode, searches.counter);
  searches[mode].passes += 1;
  quotes.forEach((quote, at) => {
    results.set(quote, ranges[at] ?? null);
    expected.delete(quote);
  });
}

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
