import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import { codePointBefore, isWhitespaceChar, tokenizeLenient } from "../text/index.js";
import type { Range } from "../types.js";
import { buildLenientIndex, type LenientIndex } from "./lenient-index.js";

const lenientIndexOf = memoizePerSource(buildLenientIndex);

/**
 * Finds the first run of whole source tokens equal to the tokens of the trimmed `quote`; the range
 * covers those tokens, plus the punctuation attached to them at each end where the quote had some.
 */
export function findLenientQuote(source: PreparedSource, quote: string): Range | null {
  const quoteTokens = tokenizeLenient(quote);
  const firstQuoteToken = quoteTokens[0];
  const lastQuoteToken = quoteTokens[quoteTokens.length - 1];
  if (firstQuoteToken === undefined || lastQuoteToken === undefined) return null;
  const index = lenientIndexOf(source);
  const keys = quoteTokens.map((token) => token.key);
  const first = firstMatchingToken(index, keys);
  if (first < 0) return null;
  const startToken = index.tokens[first];
  const endToken = index.tokens[first + keys.length - 1];
  if (startToken === undefined || endToken === undefined) return null;
  const text = source.text;
  // The quote is trimmed, so anything before its first token (or after its last) is punctuation.
  const start =
    firstQuoteToken.start > 0
      ? extendBackward(text, startToken.start, index.tokens[first - 1]?.end ?? 0)
      : startToken.start;
  const end =
    lastQuoteToken.end < quote.length
      ? extendForward(text, endToken.end, index.tokens[first + keys.length]?.start ?? text.length)
      : endToken.end;
  return [start, end];
}

/** The index of the first source token where `keys` occur in a row, or -1. */
function firstMatchingToken(index: LenientIndex, keys: readonly string[]): number {
  // Anchor on the rarest key: its occurrences are few, and walking them in ascending order still
  // yields the first match in source order.
  let anchor = 0;
  let anchorPositions: readonly number[] | undefined;
  for (let offset = 0; offset < keys.length; offset++) {
    const positions = index.positionsByKey.get(keys[offset] ?? "");
    if (positions === undefined) return -1;
    if (anchorPositions === undefined || positions.length < anchorPositions.length) {
      anchor = offset;
      anchorPositions = positions;
    }
  }
  for (const position of anchorPositions ?? []) {
    const first = position - anchor;
    if (first < 0) continue;
    if (first + keys.length > index.tokens.length) break;
    let offset = 0;
    while (offset < keys.length && index.tokens[first + offset]?.key === keys[offset]) offset++;
    if (offset === keys.length) return first;
  }
  return -1;
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
