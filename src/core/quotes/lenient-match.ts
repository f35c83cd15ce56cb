import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import {
  codePointBefore,
  isWhitespaceChar,
  type LenientToken,
  searchIds,
  tokenizeLenient,
} from "../text/index.js";
import type { Range } from "../types.js";
import { buildLenientIndex } from "./lenient-index.js";

const lenientIndexOf = memoizePerSource(buildLenientIndex);

/**
 * Finds the first run of whole source tokens equal to the tokens of the trimmed `quote`; the range
 * covers those tokens, plus the punctuation attached to them at each end where the quote had some.
 */
export function findLenientQuote(source: PreparedSource, quote: string, counter?: StepCounter): Range | null {
  const quoteTokens = tokenizeLenient(quote);
  const firstQuoteToken = quoteTokens[0];
  const lastQuoteToken = quoteTokens[quoteTokens.length - 1];
  if (firstQuoteToken === undefined || lastQuoteToken === undefined) return null;
  const index = lenientIndexOf(source);
  if (counter !== undefined) counter.steps += quote.length + quoteTokens.length;
  if (quoteTokens.length > index.ids.length) return null;
  // The quote as ids of the source's keys; a key the source never holds cannot match.
  const pattern = new Int32Array(quoteTokens.length);
  for (let offset = 0; offset < quoteTokens.length; offset++) {
    const id = index.idByKey.get((quoteTokens[offset] as LenientToken).key);
    if (id === undefined) return null;
    pattern[offset] = id;
  }
  const first = searchIds(index.ids, pattern, counter);
  if (first < 0) return null;
  const last = first + quoteTokens.length - 1;
  const text = source.text;
  const tokenStart = index.starts[first] as number;
  const tokenEnd = index.ends[last] as number;
  // The quote is trimmed, so anything before its first token (or after its last) is punctuation.
  const start =
    firstQuoteToken.start > 0
      ? extendBackward(text, tokenStart, first > 0 ? (index.ends[first - 1] as number) : 0)
      : tokenStart;
  const end =
    lastQuoteToken.end < quote.length
      ? extendForward(
          text,
          tokenEnd,
          last + 1 < index.starts.length ? (index.starts[last + 1] as number) : text.length,
        )
      : tokenEnd;
  return [start, end];
}

/** Moves `start` back over the non-whitespace characters attached to it, not into the previous token. */
function extendBackward(text: string, start: number, floor: number): number {
  let cursor = start;
  while (cursor > floor && !isWhitespaceChar(text.charCodeAt(cursor - 1))) {
    cursor -= (codePointBefore(text, cursor) ?? 0) > 0xffff ? 2 : 1;
  }
  return cursor;
}

/** Moves `end` forward over the non-whitespace characters attached to it, not into the next token. */
function extendForward(text: string, end: number, ceiling: number): number {
  let cursor = end;
  while (cursor < ceiling && !isWhitespaceChar(text.charCodeAt(cursor))) {
    cursor += (text.codePointAt(cursor) ?? 0) > 0xffff ? 2 : 1;
  }
  return cursor;
}
