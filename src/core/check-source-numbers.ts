import { findNumbers, nextNumberStart, numberEnd } from "./find-numbers.js";
import { numberKey } from "./number-key.js";
import { memoizePerSource, type PreparedSource } from "./prepared-source.js";

// Once per source and request; keys only, so a long source costs no object per number.
const numberKeysOf = memoizePerSource((text) => {
  const keys = new Set<string>();
  for (let start = nextNumberStart(text, 0); start >= 0; ) {
    const end = numberEnd(text, start);
    keys.add(numberKey(text, start, end));
    start = nextNumberStart(text, end);
  }
  return keys;
});

/** The `source` number check: every number in `claim` equals some number anywhere in the source's text. */
export function checkSourceNumbers(claim: string, source: PreparedSource): boolean {
  const claimed = findNumbers(claim);
  if (claimed.length === 0) return true;
  const keys = numberKeysOf(source);
  return claimed.every((number) => keys.has(number.key));
}
