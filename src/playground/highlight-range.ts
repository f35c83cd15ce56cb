import type { Range } from "../core/types.js";

/** A source text cut into the part before a range, the range itself and the part after it. */
export interface HighlightParts {
  before: string;
  highlighted: string;
  after: string;
}

/**
 * Splits `text` at the half-open range `[start, end)`. The range comes from the service's deterministic
 * match, so the quote is never searched for again: a range that does not fit the text (stale or
 * malformed) gives null rather than a guess.
 */
export function highlightRange(text: string, range: Range): HighlightParts | null {
  const [start, end] = range;
  if (!Number.isInteger(start) || !Number.isInteger(end)) return null;
  if (start < 0 || end < start || end > text.length) return null;
  return { before: text.slice(0, start), highlighted: text.slice(start, end), after: text.slice(end) };
}
