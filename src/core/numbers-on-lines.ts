import type { FoundNumber } from "./find-numbers.js";
import type { Range } from "./types.js";

function firstAtOrAfter(numbers: readonly FoundNumber[], offset: number): number {
  let low = 0;
  let high = numbers.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((numbers[middle] as FoundNumber).start < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The keys of the numbers on the line(s) that `range` touches in `text`. `numbers` are `text`'s numbers
 * in order, so the lines are found by binary search rather than re-parsed per claim.
 */
export function numbersOnLines(text: string, numbers: readonly FoundNumber[], range: Range): Set<string> {
  const [start, end] = range;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const newline = text.indexOf("\n", Math.max(start, end - 1));
  const lineEnd = newline < 0 ? text.length : newline;
  const keys = new Set<string>();
  for (let index = firstAtOrAfter(numbers, lineStart); index < numbers.length; index += 1) {
    const number = numbers[index] as FoundNumber;
    if (number.end > lineEnd) break;
    keys.add(number.key);
  }
  return keys;
}
