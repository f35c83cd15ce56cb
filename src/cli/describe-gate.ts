import type { EvalReport } from "./build-eval-report.js";
import { formatScore } from "./format-score.js";

/** The gate's verdict in words: `coverage_mean 0.9 >= min-coverage 0.8`. */
export function describeGate(report: EvalReport): string {
  if (report.aggregate.n === report.aggregate.errored) return "every case errored, so nothing was scored";
  const mean = formatScore(report.aggregate.coverageMean);
  const threshold = formatScore(report.minCoverage);
  return report.passed
    ? `coverage_mean ${mean} >= min-coverage ${threshold}`
    : `coverage_mean ${mean} < min-coverage ${threshold}`;
}
