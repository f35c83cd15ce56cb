import { describeRegressionGate } from "./compare-baseline.js";
import { type EvalReport, meetsThreshold, type ReportCase } from "./eval-report.js";

/** The `count` worst cases: errored ones first, then by coverage ascending, ties in dataset order. */
export function lowestCases(cases: readonly ReportCase[], count = 10): ReportCase[] {
  const rank = (entry: ReportCase) => (entry.error !== undefined ? -1 : (entry.coverage ?? 0));
  return [...cases]
    .sort((left, right) => rank(left) - rank(right) || left.index - right.index)
    .slice(0, count);
}

/** A case's outcome in words, for tables: `2 of 3 claims grounded`, or its error code and message. */
export function describeCase(entry: ReportCase): string {
  if (entry.error !== undefined) return `${entry.error.code}: ${entry.error.message}`.replace(/\s+/g, " ");
  const citations = entry.citations ?? 0;
  const claims = citations + (entry.unsupported ?? 0);
  return claims === 0 ? "no claims" : `${citations} of ${claims} claims grounded`;
}

/** A score in [0, 1] for people: at most three decimals, no trailing zeros (`1`, `0.667`, `0.05`). */
export function formatScore(value: number): string {
  return value.toFixed(3).replace(/\.?0+$/, "");
}

/** `1 model call`, `1,204 tokens`: a count with its noun, plural when it is not 1. */
export function formatCount(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

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
