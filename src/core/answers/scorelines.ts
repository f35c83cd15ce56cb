// Scorelines: a tally the source may tell event by event without writing it.

/**
 * Two whole numbers of one or two digits joined by a hyphen or dash (`4-1`, `2 – 0`), not inside a longer
 * number, date or code. Bounded quantifiers only: linear.
 */
const NUMBER_PAIR = /(?<![\p{L}\p{N}.,/:\-–])(\d{1,2}) ?[-–] ?(\d{1,2})(?![\p{L}\p{N}/:\-–]|[.,]\p{N})/gu;

// What every NUMBER_PAIR holds: a digit, maybe a space, a hyphen or dash, maybe a space, a digit. A text with
// none is not matched (this pattern reads at most five characters from each place: linear).
const NUMBER_PAIR_SHAPE = /\d ?[-–] ?\d/;
const mayHoldNumberPair = (text: string): boolean => NUMBER_PAIR_SHAPE.test(text);

// A pair written high to low (or level) is a score; low to high, a range.
const isScore = (first: string, second: string): boolean => Number(first) >= Number(second);

/**
 * The clause with each scoreline blanked out (offsets kept): a pair of small numbers whose first is not below
 * its second (`won 4-1`, `made it 2-0`, `drew 1-1`). A range is written low to high (`3-5 days`) and stays
 * checked; a pair written high to low is a score, which a report often tells goal by goal (`Okafor scored,
 * then Lindqvist doubled the lead`) and never writes. The answer check blanks scorelines only when no source
 * writes one (`writesScoreline`). O(n).
 */
export function withoutScorelines(text: string): string {
  if (!mayHoldNumberPair(text)) return text;
  return text.replace(NUMBER_PAIR, (pair, first: string, second: string) =>
    isScore(first, second) ? " ".repeat(pair.length) : pair,
  );
}

/** True when `text` writes a scoreline itself (a pair as above, the first not below the second). O(n). */
export function writesScoreline(text: string): boolean {
  if (!mayHoldNumberPair(text)) return false;
  for (const [, first, second] of text.matchAll(NUMBER_PAIR))
    if (Number(first) >= Number(second)) return true;
  return false;
}
