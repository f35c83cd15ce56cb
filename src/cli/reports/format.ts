import { trimTrailing } from "../../util.js";
import { describeRegressionGate } from "./compare-baseline.js";
import { type EvalReport, gateVerdicts, type ReportCase } from "./eval-report.js";

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
  const grounding = describeGrounding(entry);
  return entry.correct === undefined ? grounding : `${grounding}; ${describeCorrectness(entry)}`;
}

/** A scored case's claims in words: `2 of 3 claims grounded`, or `no claims`. */
export function describeGrounding(entry: ReportCase): string {
  const citations = entry.citations ?? 0;
  const claims = citations + (entry.unsupported ?? 0);
  return claims === 0 ? "no claims" : `${citations} of ${claims} claims grounded`;
}

/** `correct ("1,250" in claim 1)` or `not correct`, for a case with `expected`. */
export function describeCorrectness(entry: ReportCase): string {
  if (entry.match === undefined) return "not correct";
  return `correct (${JSON.stringify(entry.match.expected.replace(/\s+/g, " "))} in claim ${entry.match.citation + 1})`;
}

/** The cases with `expected` that are not correct, errored ones aside, in dataset order. */
export function incorrectCases(cases: readonly ReportCase[], count = 10): ReportCase[] {
  return cases.filter((entry) => entry.correct === false).slice(0, count);
}

/** A score in [0, 1] for people: at most three decimals, no trailing zeros (`1`, `0.667`, `0.05`). */
export function formatScore(value: number): string {
  const digits = trimTrailing(value.toFixed(3), "0");
  return digits.endsWith(".") ? digits.slice(0, -1) : digits;
}

/** `1 model call`, `1,204 tokens`: a count with its noun, plural when it is not 1. */
export function formatCount(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The gates the command applied and their verdicts in words: `coverage_mean 0.9 >= min-coverage 0.8`, then
 * `correct_rate 0.95 >= min-correct 0.9` with `--min-correct`, then the regressions that fail the run with
 * `--fail-on-regression`.
 */
export function describeGate(report: EvalReport): string {
  const gates = gateVerdicts(report);
  const parts = [describeCoverageGate(report, gates.nothingScored)];
  if (report.minCorrect !== undefined) parts.push(describeCorrectGate(report, report.minCorrect));
  const regressions = describeRegressionGate(report.baseline);
  if (regressions !== undefined) parts.push(regressions);
  return parts.join("; ");
}

function compare(name: string, value: number, flag: string, threshold: number, passes: boolean): string {
  return `${name} ${formatScore(value)} ${passes ? ">=" : "<"} ${flag} ${formatScore(threshold)}`;
}

function describeCoverageGate(report: EvalReport, nothingScored: boolean): string {
  if (nothingScored) return "every case errored, so nothing was scored";
  const { coverageMean } = report.aggregate;
  return compare(
    "coverage_mean",
    coverageMean,
    "min-coverage",
    report.minCoverage,
    gateVerdicts(report).coverage,
  );
}

function describeCorrectGate(report: EvalReport, minCorrect: number): string {
  const rate = report.aggregate.correctRate;
  if (rate === undefined)
    return `no scored case has "expected", so min-correct ${formatScore(minCorrect)} fails`;
  return compare("correct_rate", rate, "min-correct", minCorrect, gateVerdicts(report).correct === true);
}
