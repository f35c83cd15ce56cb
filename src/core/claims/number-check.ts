import { checkSourceNumbers } from "../numbers/index.js";
import type { PreparedSource } from "../prepared-source.js";
import { checkRowNumbers } from "../tables/index.js";
import type { Range } from "../types.js";

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
  return mode === "row" ? checkRowNumbers(claim, source, quoteRange) : checkSourceNumbers(claim, source);
}
