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
import { buildLenientIndex, type LenientIndex } from "./lenient-index.js";

/** The source's lenient index, built once per request; building it counts one step per source character. */
export const lenientIndexOf = memoizePerSource(buildLenientIndex);

/**
 * Finds the first run of whole source tokens equal to the tokens of the trimmed `quote`; the range
 * covers those tokens, plus the punctuation attached to them at each end where the quote had some.
 */
export function findLenientQuote(source: PreparedSource, quote: string, counter?: StepCounter): Range | null {
  const quoteTokens = tokenizeLenient(quote);
  if (quoteTokens.length === 0) return null;
  const index = lenientIndexOf(source, counter);
  if (counter !== undefined) counter.steps += quote.length + quoteTokens.length;
  const pattern = lenientPattern(quoteTokens, index);
  if (pattern === null) return null;
  const first = searchIds(index.ids, pattern, counter);
  return first < 0 ? null : lenientRange(source.text, index, quote, quoteTokens, first);
}

/**
 * The quote's tokens as ids of the source's keys, or null when no run of source tokens can equal them: no
 * tokens, more tokens than the source, or a key the source never holds.
 */
export function lenientPattern(quoteTokens: readonly LenientToken[], index: LenientIndex): Int32Array | null {
  if (quoteTokens.length === 0 || quoteTokens.length > index.ids.length) return null;
  const pattern = new Int32Array(quoteTokens.length);
  for (let offset = 0; offset < quoteTokens.length; offset++) {
    const id = index.idByKey.get((quoteTokens[offset] as LenientToken).key);
    if (id === undefined) return null;
    pattern[offset] = id;
  }
  return pattern;
}

/**
 * The range of the quote matched at source token `first`: those tokens, extended over the punctuation
 * attached to them at each end where the (trimmed) quote had some before its first token or after its last.
 */
export function lenientRange(
  text: string,
  index: LenientIndex,
  quote: string,
  quoteTokens: readonly LenientToken[],
  first: number,
): Range {
  const last = first + quoteTokens.length - 1;
  const tokenStart = index.starts[first] as number;
  const tokenEnd = index.ends[last] as number;
  const start =
    (quoteTokens[0] as LenientToken).start > 0
      ? extendBackward(text, tokenStart, first > 0 ? (index.ends[first - 1] as number) : 0)
      : tokenStart;
  const end =
    (quoteTokens[quoteTokens.length - 1] as LenientToken).end < quote.length
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
