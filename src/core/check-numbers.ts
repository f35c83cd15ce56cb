import type { PreparedSource } from "./prepared-source.js";
import type { Range } from "./types.js";

/**
 * True when every number in `claim` is grounded in `source`: anywhere in its text (`source`), or bound to
 * the table cell or line the claim names (`row`). `quoteRange` is where the claim's quote matched.
 */
export function checkNumbers(
  claim: string,
  source: PreparedSource,
  quoteRange: Range,
  mode: "source" | "row",
): boolean {
  // Placeholder until the number rules land.
  void claim;
  void source;
  void quoteRange;
  void mode;
  return true;
}
