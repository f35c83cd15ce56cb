import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import {
  codePointAt,
  codePointBefore,
  forEachLenientToken,
  isWhitespaceChar,
  searchIds,
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
  const index = lenientIndexOf(source, counter);
  const read = readLenientQuote(quote, index);
  if (counter !== undefined) counter.steps += quote.length + (read?.tokenCount ?? 0);
  if (read === null || read.pattern === null) return null;
  const first = searchIds(index.ids, read.pattern, counter);
  return first < 0 ? null : lenientRange(source.text, index, read, first);
}

/** A quote read against a source's lenient index. */
export interface LenientQuote {
  /**
   * The quote's tokens as the source's ids; null when no run of source tokens can equal them (more tokens
   * than the source, or a key it never holds).
   */
  pattern: Int32Array | null;
  tokenCount: number;
  /** Whether the (trimmed) quote has punctuation before its first token, or after its last. */
  punctuationBefore: boolean;
  punctuationAfter: boolean;
}

/** Reads `quote`'s lenient tokens as ids of `index`, keeping no token objects; null when it has none. O(m). */
export function readLenientQuote(quote: string, index: LenientIndex): LenientQuote | null {
  // Keys gathered first and looked up after: fewer variables for the visitor to update.
  const keys: string[] = [];
  let firstStart = 0;
  let lastEnd = 0;
  forEachLenientToken(quote, (key, start, end) => {
    if (keys.length === 0) firstStart = start;
    lastEnd = end;
    keys.push(key);
  });
  const tokenCount = keys.length;
  if (tokenCount === 0) return null;
  let pattern: Int32Array | null = tokenCount > index.ids.length ? null : new Int32Array(tokenCount);
  for (let at = 0; pattern !== null && at < tokenCount; at += 1) {
    const id = index.idByKey.get(keys[at] as string);
    if (id === undefined) pattern = null;
    else pattern[at] = id;
  }
  return { pattern, tokenCount, punctuationBefore: firstStart > 0, punctuationAfter: lastEnd < quote.length };
}

/**
 * The range of the quote matched at source token `first`: those tokens, extended over the punctuation
 * attached to them at each end where the quote had some before its first token or after its last.
 */
export function lenientRange(text: string, index: LenientIndex, quote: LenientQuote, first: number): Range {
  const last = first + quote.tokenCount - 1;
  const tokenStart = index.starts[first] as number;
  const tokenEnd = index.ends[last] as number;
  const start = quote.punctuationBefore
    ? extendBackward(text, tokenStart, first > 0 ? (index.ends[first - 1] as number) : 0)
    : tokenStart;
  const end = quote.punctuationAfter
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
    cursor += (codePointAt(text, cursor) ?? 0) > 0xffff ? 2 : 1;
  }
  return cursor;
}
