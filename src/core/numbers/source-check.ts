import { MAX_EXPLAIN_TEXT_CHARS } from "../../limits.js";
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { NumberMiss, Range } from "../types.js";
import { numberKey } from "./number-key.js";
import { nextNumberStart, numberEnd } from "./scan.js";

// The number keys of `text[from, to)`, without an object per number.
function keysIn(text: string, from: number, to: number): Set<string> {
  const keys = new Set<string>();
  for (let start = nextNumberStart(text, from, to); start >= 0; ) {
    const end = numberEnd(text, start, to);
    keys.add(numberKey(text, start, end));
    start = nextNumberStart(text, end, to);
  }
  return keys;
}

// Once per source and request.
const numberKeysOf = memoizePerSource((text) => keysIn(text, 0, text.length));

// The first number of `claim` whose key `keys()` lacks, as written; null when there is none. The keys are
// read only when the claim holds a number.
function firstMissing(claim: string, keys: () => Set<string>): string | null {
  let known: Set<string> | undefined;
  for (let start = nextNumberStart(claim, 0); start >= 0; ) {
    const end = numberEnd(claim, start);
    known ??= keys();
    if (!known.has(numberKey(claim, start, end))) return claim.slice(start, end);
    start = nextNumberStart(claim, end);
  }
  return null;
}

/** The `source` number check: every number in `claim` equals some number anywhere in the source's text. */
export function checkSourceNumbers(claim: string, source: PreparedSource): boolean {
  return explainSourceNumbers(claim, source) === null;
}

/** As `checkSourceNumbers`; null when every number holds, else the first that does not. */
export function explainSourceNumbers(claim: string, source: PreparedSource): NumberMiss | null {
  const number = firstMissing(claim, () => numberKeysOf(source));
  return number === null ? null : { number, checked: "source" };
}

/**
 * The `quote` number check: every number in `claim` equals a number of the claim's own quote
 * (`quoteRange` of the source). Null when every number holds, else the first that does not.
 */
export function explainQuoteNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
): NumberMiss | null {
  const [from, to] = quoteRange;
  const number = firstMissing(claim, () => keysIn(source.text, from, to));
  if (number === null) return null;
  const quote = source.text.slice(from, Math.min(to, from + MAX_EXPLAIN_TEXT_CHARS));
  return { number, checked: "quote", text: to - from > MAX_EXPLAIN_TEXT_CHARS ? `${quote}…` : quote };
}
