import type { ReportCase } from "./build-eval-report.js";

/** The `count` worst cases: errored ones first, then by coverage ascending, ties in dataset order. */
export function lowestCases(cases: readonly ReportCase[], count = 10): ReportCase[] {
  const rank = (entry: ReportCase) => (entry.error !== undefined ? -1 : (entry.coverage ?? 0));
  return [...cases]
    .sort((left, right) => rank(left) - rank(right) || left.index - right.index)
    .slice(0, count);
}
