import type { EvalResult } from "./wire-types.js";

/**
 * Merges the results of a dataset sent in several 200-case pages into one, exactly as one request would
 * report it: `coverage_mean` is the mean over every non-errored case (not a mean of page means) and
 * `unsupported_rate` is total unsupported claims over total claims; both 0 when no case is left.
 */
export function mergeEvalResults(pages: readonly EvalResult[]): EvalResult {
  if (pages.length === 1) return pages[0] as EvalResult;
  const cases = pages.flatMap((page) => page.cases);
  const scored = cases.filter((item) => item.error === undefined);
  const claims = scored.reduce((sum, item) => sum + item.citations + item.unsupported, 0);
  const unsupported = scored.reduce((sum, item) => sum + item.unsupported, 0);
  const coverageSum = scored.reduce((sum, item) => sum + item.coverage, 0);
  return {
    aggregate: {
      coverage_mean: scored.length === 0 ? 0 : coverageSum / scored.length,
      unsupported_rate: claims === 0 ? 0 : unsupported / claims,
      n: pages.reduce((sum, page) => sum + page.aggregate.n, 0),
      errored: pages.reduce((sum, page) => sum + page.aggregate.errored, 0),
    },
    cases,
    usage: {
      total_tokens: pages.reduce((sum, page) => sum + page.usage.total_tokens, 0),
      model_calls: pages.reduce((sum, page) => sum + page.usage.model_calls, 0),
    },
  };
}
