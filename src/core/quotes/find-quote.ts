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
 * source character; the next search of a quote announced by `expectQuotes` then finds every announced
 * quote not searched yet in one pass (`findQuotesAtOnce`, O(n + Σm)). So a request's quotes against a
 * source cost O(n + Σm) in all, however many distinct near misses it holds.
 */
export function findQuote(source: PreparedSource, quote: string, mode: MatchMode): Range | null {
  const trimmed = trimQuote(quote);
  if (trimmed === "") return null;
  const searches = searchesOf(source);
  const key = keyOf(trimmed, mode);
  let range = searches.results.get(key);
  if (range === undefined) {
    const work = searches.counter.steps - searches.stepsAtBatch;
    if (searches.expected.size > 1 && (searches.periodic || work >= BATCH_AFTER[mode] * source.text.length)) {
      searchExpectedAtOnce(source, searches, mode);
      range = searches.results.get(key);
    }
    if (range === undefined) {
      const before = searches.counter.steps;
      range =
        mode === "lenient"
          ? findLenientQuote(source, trimmed, searches.counter)
          : findStrictQuoteInSource(source, trimmed, searches.counter);
      searches.results.set(key, range);
      searches.expected.delete(key);
      // A search past the direct scan's budget went through the linear fallback: the mark of a periodic
      // source, where the other quotes would too, so the next search finds them at once.
      if (searches.counter.steps - before > FAST_BUDGET * (source.text.length + trimmed.length)) {
        searches.periodic = true;
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
  const searches = searchesOf(source);
  for (const quote of quotes) {
    const trimmed = trimQuote(quote);
    if (trimmed === "") continue;
    const key = keyOf(trimmed, mode);
    if (!searches.results.has(key)) searches.expected.set(key, trimmed);
  }
}

/** The steps every quote search in `source` has taken so far in this request, batches included (for tests). */
export function quoteSearchSteps(source: PreparedSource): number {
  return searchesOf(source).counter.steps;
}

/**
 * Steps per source character that one-at-a-time searches of a source may take before the announced quotes
 * are found at once. A strict pass at once costs about as much as 30 typical one-at-a-time steps per
 * character (it tokenizes the whole source, where `indexOf` stops at the first hit), so a typical request
 * never pays it; a lenient pass reuses the source's token index and costs far less.
 */
const BATCH_AFTER: Readonly<Record<MatchMode, number>> = { strict: 32, lenient: 8 };

/** One source's quote searches in this request. */
interface QuoteSearches {
  /** Each searched quote's range or null, by `keyOf`. */
  results: Map<string, Range | null>;
  /** Quotes announced by `expectQuotes` and not searched yet: key to trimmed quote. */
  expected: Map<string, string>;
  counter: StepCounter;
  /** `counter.steps` after the last search at once. */
  stepsAtBatch: number;
  /** Whether a search since then needed the linear fallback. */
  periodic: boolean;
}

const searchesOf = memoizePerSource(
  (): QuoteSearches => ({
    results: new Map(),
    expected: new Map(),
    counter: { steps: 0 },
    stepsAtBatch: 0,
    periodic: false,
  }),
);

function keyOf(trimmed: string, mode: MatchMode): string {
  return `${mode === "lenient" ? "l" : "s"}${trimmed}`;
}

function searchExpectedAtOnce(source: PreparedSource, searches: QuoteSearches, mode: MatchMode): void {
  const prefix = keyOf("", mode);
  const keys: string[] = [];
  const quotes: string[] = [];
  for (const [key, trimmed] of searches.expected) {
    if (!key.startsWith(prefix)) continue;
    keys.push(key);
    quotes.push(trimmed);
  }
  const ranges = findQuotesAtOnce(source, quotes, mode, searches.counter);
  keys.forEach((key, at) => {
    searches.results.set(key, ranges[at] ?? null);
    searches.expected.delete(key);
  });
  searches.stepsAtBatch = searches.counter.steps;
  searches.periodic = false;
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
