// The pairs a model may wrap around a quote; only a matching pair is removed, so an apostrophe that
// merely ends a quote (`the Panthers'`) stays.
const ENCLOSING_PAIRS: ReadonlyMap<string, string> = new Map([
  ['"', '"'],
  ["\u201c", "\u201d"],
  ["'", "'"],
  ["\u2018", "\u2019"],
  ["\u00ab", "\u00bb"],
]);

/** Trims `quote` of surrounding whitespace and of one pair of enclosing quotation marks, then whitespace. */
export function trimQuote(quote: string): string {
  const trimmed = quote.trim();
  if (trimmed.length < 2) return trimmed;
  const closing = ENCLOSING_PAIRS.get(trimmed.charAt(0));
  if (closing === undefined || !trimmed.endsWith(closing)) return trimmed;
  return trimmed.slice(1, -1).trim();
}
