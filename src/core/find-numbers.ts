import { numberKey } from "./number-key.js";

/** A number found in a text: its canonical key and where its digits are, `[start, end)`. */
export interface FoundNumber {
  key: string;
  start: number;
  end: number;
}

// Thousands groups must be exactly three digits and may not run into more digits (`1,2345` is 1 and 2345).
// The lookbehind keeps `Q3`, `FY2023` and `H1` number-free. It also refuses a run right after `digit.`,
// so a version `1.2.3` holds 1.2 only and `v1.2` none, rather than a stray 3 or 2. A `,` is not refused,
// so a list `1,2,3` holds 1, 2 and 3.
const NUMBER = /(?<![\p{L}\p{M}\p{N}]|\p{N}\.)(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?/gu;

/** Every number in `text`, in order. A sign, currency symbol, unit or parentheses around it are not part of it. */
export function findNumbers(text: string): FoundNumber[] {
  const found: FoundNumber[] = [];
  for (const match of text.matchAll(NUMBER)) {
    found.push({ key: numberKey(match[0]), start: match.index, end: match.index + match[0].length });
  }
  return found;
}
