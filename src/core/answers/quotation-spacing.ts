// A quotation that differs from its source only in spacing next to punctuation: `Casa Verde (Green House)`
// quoting a tokenised source's `Casa Verde ( Green House )`.
import type { PreparedSource } from "../prepared-source.js";
import { expectQuotes, findQuote } from "../quotes/index.js";
import type { StepCounter } from "../step-counter.js";
import { isWhitespaceChar } from "../text/index.js";
import type { MatchMode } from "../types.js";

// A character next to which sources and answers space differently: anything but a letter, digit, mark or
// whitespace. A quotation without one cannot differ in that spacing alone.
const PUNCTUATION = /[^\p{L}\p{N}\p{M}\s]/u;

/**
 * Announces a strict quotation that could match up to spacing to the source's lenient searches, so that
 * `foundUpToSpacing` stays O(n + Σm) for all the request's quotations (`expectQuotes`). O(m).
 */
export function expectSpacedQuotation(source: PreparedSource, quotation: string, mode: MatchMode): void {
  if (mode === "strict" && PUNCTUATION.test(quotation)) expectQuotes(source, [quotation], "lenient");
}

/**
 * Whether a quotation strict matching missed occurs in the source with only its spacing different: the
 * source's first lenient match of it (the same words, `findQuote`) holds the quotation's characters in
 * order, case, punctuation and all, with whitespace added or removed anywhere between them. Only a quotation
 * holding punctuation qualifies (between two words, lenient matching already equates any spacing).
 */
export function foundUpToSpacing(source: PreparedSource, quotation: string, counter?: StepCounter): boolean {
  if (!PUNCTUATION.test(quotation)) return false;
  const range = findQuote(source, quotation, "lenient");
  return range !== null && sameUpToSpacing(source.text, range[0], quotation.trim(), counter);
}

/**
 * Characters of source a quotation of m characters may span and still differ only in spacing: 2m + this
 * (a space on each side of every character, and a few line breaks). It bounds each comparison to O(m), so a
 * quotation repeated many times costs O(Σm) however long the source's whitespace runs.
 */
const SPACING_SLACK = 64;

// Whether `text` from `start` holds `quote`'s characters in order with only whitespace added or removed,
// within 2m + SPACING_SLACK characters. O(m).
function sameUpToSpacing(text: string, start: number, quote: string, counter?: StepCounter): boolean {
  const limit = Math.min(text.length, start + 2 * quote.length + SPACING_SLACK);
  let at = start;
  let same = true;
  for (let index = 0; same && index < quote.length; index++) {
    const code = quote.charCodeAt(index);
    if (isWhitespaceChar(code)) continue;
    while (at < limit && isWhitespaceChar(text.charCodeAt(at))) at++;
    same = at < limit && text.charCodeAt(at) === code;
    at++;
  }
  if (counter !== undefined) counter.steps += quote.length + at - start;
  return same;
}
