import { findNumbers } from "./find-numbers.js";
import { memoizePerSource, type PreparedSource } from "./prepared-source.js";

const numberKeysOf = memoizePerSource((text) => new Set(findNumbers(text).map((number) => number.key)));

/** The `source` number check: every number in `claim` equals some number anywhere in the source's text. */
export function checkSourceNumbers(claim: string, source: PreparedSource): boolean {
  const claimed = findNumbers(claim);
  if (claimed.length === 0) return true;
  const keys = numberKeysOf(source);
  return claimed.every((number) => keys.has(number.key));
}
