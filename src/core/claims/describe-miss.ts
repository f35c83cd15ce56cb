import type { NumberMiss } from "../types.js";

/**
 * A number-check miss in one sentence: `120 is not in Q3 / Revenue: "1,250"`, `45 is not in the
 * source`, `13 is not on the quoted line: "…"`. For the CLI's `--explain` and the playground's tooltip.
 */
export function describeNumberMiss(miss: NumberMiss): string {
  switch (miss.checked) {
    case "source":
      return `${miss.number} is not in the cited source`;
    case "quote":
      return `${miss.number} is not in the claim's quote: "${miss.text ?? ""}"`;
    case "line":
      return `${miss.number} is not on the quoted line: "${miss.text ?? ""}"`;
    default: {
      if (miss.cells !== undefined && miss.cells.length === 0)
        return `${miss.number} was not bound to a cell: no cell was checked (the table named has no body rows, or the claim names table labels more often than the row check reads; see docs/number-checks.md)`;
      const cells = (miss.cells ?? []).map((cell) => `${cell.row} / ${cell.column}: "${cell.text}"`);
      return `${miss.number} is not in the cells checked (${cells.join("; ")})`;
    }
  }
}

/** Why an answer-mode check dropped a claim (`detail` of `wrong_source`, `no_support` and the like). */
export interface AnswerMissDetail {
  foundIn?: readonly string[];
  words?: readonly string[];
  entity?: string;
  quotation?: string;
  differsOnlyIn?: "first_letter_case" | "case";
  sourceText?: string;
  marker?: string;
}

/**
 * A dropped claim's reason and detail in one sentence: `"Zorgland" is in no source and not in the question`,
 * `its cited source does not support it; report_q3 does`. Undefined when there is no detail to tell (the
 * reason code says it all). For the CLI's `--explain` and the playground's reasons.
 */
export function describeDrop(item: {
  reason: string;
  detail?: NumberMiss | AnswerMissDetail | undefined;
}): string | undefined {
  const detail = item.detail;
  if (detail === undefined) return undefined;
  if ("number" in detail) return describeNumberMiss(detail);
  if (detail.foundIn !== undefined && detail.foundIn.length > 0)
    return `its cited source does not support it; ${detail.foundIn.join(", ")} ${detail.foundIn.length === 1 ? "does" : "do"}`;
  if (detail.entity !== undefined) return `"${detail.entity}" is in no source and not in the question`;
  if (detail.quotation !== undefined && detail.sourceText !== undefined)
    return `the quotation "${detail.quotation}" differs from its cited source's "${detail.sourceText}" only in ${detail.differsOnlyIn === "first_letter_case" ? "the case of its first letter" : "case"} (lenient mode keeps it)`;
  if (detail.quotation !== undefined) return `the quotation "${detail.quotation}" is not in its cited source`;
  if (detail.marker !== undefined) return `the marker ${detail.marker} names no source`;
  if (detail.words !== undefined && detail.words.length > 0)
    return `no span of its sources holds ${detail.words.map((word) => `"${word}"`).join(", ")}`;
  return undefined;
}
