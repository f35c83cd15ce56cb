import type { CallUsage } from "../../client/index.js";
import { h, percent, plural } from "../dom.js";

let meterCount = 1;

/** A coverage meter with its figure in words, e.g. "Coverage 67% · 2 of 3 claims grounded". */
export function coverageMeter(coverage: number, grounded: number, total: number, noun: string): HTMLElement {
  const id = `coverage-${meterCount++}`;
  return h(
    "div",
    { class: "coverage" },
    h("label", { for: id }, "Coverage"),
    h("meter", { id, min: 0, max: 1, low: 0.5, high: 0.99, optimum: 1, value: coverage }, percent(coverage)),
    h(
      "span",
      { class: "coverage-figure" },
      h("strong", {}, percent(coverage)),
      ` · ${grounded} of ${plural(total, noun)} grounded`,
    ),
  );
}

/** One line of provenance: model, calls, tokens, result id and how long the page waited. */
export function usageLine(model: string, usage: CallUsage, elapsedMs: number, id?: string): HTMLElement {
  const parts = [
    `model ${model}`,
    plural(usage.modelCalls, "model call"),
    plural(usage.totalTokens, "token"),
    ...(id === undefined ? [] : [id]),
    `${Math.round(elapsedMs).toLocaleString("en")} ms`,
  ];
  return h("p", { class: "meta" }, parts.join(" · "));
}
