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
