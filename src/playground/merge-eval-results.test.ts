import { describe, expect, it } from "vitest";
import { mergeEvalResults } from "./merge-eval-results.js";
import type { EvalResult } from "./wire-types.js";

const pageOne: EvalResult = {
  aggregate: { coverage_mean: 0.75, unsupported_rate: 0.25, n: 2, errored: 0 },
  cases: [
    { coverage: 1, citations: 2, unsupported: 0 },
    { coverage: 0.5, citations: 1, unsupported: 1 },
  ],
  usage: { total_tokens: 10, model_calls: 2 },
};
const pageTwo: EvalResult = {
  aggregate: { coverage_mean: 0, unsupported_rate: 1, n: 2, errored: 1 },
  cases: [
    { coverage: 0, citations: 0, unsupported: 3 },
    {
      coverage: 0,
      citations: 0,
      unsupported: 0,
      error: { type: "extraction_failed", code: "extraction_failed", message: "m" },
    },
  ],
  usage: { total_tokens: 5, model_calls: 3 },
};

describe("mergeEvalResults", () => {
  it("returns a single page unchanged", () => {
    expect(mergeEvalResults([pageOne])).toBe(pageOne);
  });

  it("merges over cases, not over page means, leaving errored cases out", () => {
    expect(mergeEvalResults([pageOne, pageTwo])).toEqual({
      aggregate: { coverage_mean: 1.5 / 3, unsupported_rate: 4 / 7, n: 4, errored: 1 },
      cases: [...pageOne.cases, ...pageTwo.cases],
      usage: { total_tokens: 15, model_calls: 5 },
    });
  });

  it("gives 0 rates when every case errored", () => {
    const errored = { ...pageTwo, cases: [pageTwo.cases[1] as EvalResult["cases"][number]] };
    expect(mergeEvalResults([errored, errored]).aggregate).toEqual({
      coverage_mean: 0,
      unsupported_rate: 0,
      n: 4,
      errored: 2,
    });
  });
});
