import { type EvalReport, meetsThreshold } from "./build-eval-report.js";
import { describeRegressionGate } from "./compare-baseline.js";
import { formatScore } from "./format-score.js";

/**
 * The gate's verdict in words: `coverage_mean 0.9 >= min-coverage 0.8`, followed by the regressions that fail
 * the run with `--fail-on-regression`.
 */
export function describeGate(report: EvalReport): string {
  const regressions = describeRegressionGate(report.baseline);
  const coverage = describeCoverageGate(report);
  return regressions === undefined ? coverage : `${coverage}; ${regressions}`;
}

function describeCoverageGate(report: EvalReport): string {
  if (report.aggregate.n === report.aggregate.errored) return "every case errored, so nothing was scored";
  const mean = formatScore(report.aggregate.coverageMean);
  const threshold = formatScore(report.minCoverage);
  return meetsThreshold(report.aggregate.coverageMean, report.minCoverage)
    ? `coverage_mean ${mean} >= min-coverage ${threshold}`
    : `coverage_mean ${mean} < min-coverage ${threshold}`;
}
