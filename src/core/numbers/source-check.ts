import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import { numberKey } from "./number-key.js";
import { nextNumberStart, numberEnd } from "./scan.js";

// Once per source and request, without an object per number.
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
  let keys: Set<string> | undefined;
  for (let start = nextNumberStart(claim, 0); start >= 0; ) {
    const end = numberEnd(claim, start);
    keys ??= numberKeysOf(source);
    if (!keys.has(numberKey(claim, start, end))) return false;
    start = nextNumberStart(claim, end);
  }
  return true;
}
