import type { PreparedSource } from "./prepared-source.js";
import type { MatchMode, Range } from "./types.js";

/**
 * Finds the first match of `quote` in `source` under `mode`, or null. The range satisfies
 * `source.text.slice(range[0], range[1])` being the matched source text.
 */
export function findQuote(source: PreparedSource, quote: string, mode: MatchMode): Range | null {
  // Placeholder until the matcher lands: exact, mode-agnostic.
  void mode;
  const trimmed = quote.trim();
  if (trimmed === "") return null;
  const start = source.text.indexOf(trimmed);
  return start < 0 ? null : [start, start + trimmed.length];
}
