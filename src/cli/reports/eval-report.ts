import type {
  CallUsage,
  EvalAggregate,
  EvalAllResult,
  EvalCaseError,
  ExpectedMatch,
  MatchMode,
  UnsupportedClaim,
} from "../../client/index.js";

/** One dataset case in a report: its scores, or its error, and whether it meets the threshold. */
export interface ReportCase {
  /** 0-based position in the dataset. */
  index: number;
  /** The case's `id`, when the dataset gave one. */
  id?: string;
  /** The `id`, or `#N` (1-based position) for a case without one: how tables and JUnit name it. */
  label: string;
  coverage?: number;
  citations?: number;
  unsupported?: number;
  error?: EvalCaseError;
  /** The claims the check dropped, with why; present when the run had details and some were dropped. */
  dropped?: UnsupportedClaim[];
  /** How many claims the case dropped when its result was over its details share, so none is listed. */
  droppedNotListed?: number;
  /** With `expected`: whether an expected answer is in a grounded claim. */
  correct?: boolean;
  /** With `correct: true`: which expected answer matched, and where. */
  match?: ExpectedMatch;
  /** Why the case fails the gate the run failed; absent when it does not (always, when the run passed). */
  failures?: CaseFailure[];
  /** Whether the case passes the gate the command applied: it has no `failures`. */
  passed: boolean;
}

/**
 * How a case counts against a gate that failed: it errored, its coverage is below `--min-coverage` (when
 * coverage_mean failed it), it is not correct (when correct_rate failed `--min-correct`), or it regressed
 * (with `--fail-on-regression`). A case fails in the reports exactly when it has one, so a passing run has
 * no failed case.
 */
export type CaseFailure = "errored" | "below_min_coverage" | "not_correct" | "regressed";

/** Everything `verified eval` prints and writes: the run, its aggregate, the gate and every case. */
export interface EvalReport {
  dataset: string;
  model: string;
  mode: MatchMode;
  minCoverage: number;
  /** `--min-correct`: the lowest correct_rate that passes; absent when the run does not gate on it. */
  minCorrect?: number;
  /**
   * The gate: `coverageMean >= minCoverage` with at least one case scored, `correctRate >= minCorrect` when
   * that is set, and no regression with `--fail-on-regression`.
   */
  passed: boolean;
  aggregate: EvalAggregate;
  usage: CallUsage;
  cases: ReportCase[];
  /** The comparison with `--baseline`, when one was given. */
  baseline?: BaselineComparison;
}

// Coverage is a mean of fractions: a threshold written as 0.8 must not fail on 0.7999999999999999, nor a loss
// of exactly the regression tolerance count as beyond it.
export const EPSILON = 1e-9;

/** Whether `coverage` reaches `minCoverage`, up to float rounding. */
export function meetsThreshold(coverage: number, minCoverage: number): boolean {
  return coverage + EPSILON >= minCoverage;
}

/** Which gates of a report failed: its verdict, kept apart so each case can say which it fails. */
export interface GateVerdicts {
  /** Every case errored, so nothing was scored. */
  nothingScored: boolean;
  coverage: boolean;
  /** Undefined when the run does not gate on correctness. */
  correct: boolean | undefined;
  /** Undefined without `--fail-on-regression`. */
  regression: boolean | undefined;
}

/** Whether each gate of `report` passes. */
export function gateVerdicts(report: EvalReport): GateVerdicts {
  const { aggregate } = report;
  const nothingScored = aggregate.n === aggregate.errored;
  const comparison = report.baseline;
  return {
    nothingScored,
    coverage: !nothingScored && meetsThreshold(aggregate.coverageMean, report.minCoverage),
    correct:
      report.minCorrect === undefined
        ? undefined
        : aggregate.correctRate !== undefined && meetsThreshold(aggregate.correctRate, report.minCorrect),
    regression:
      comparison === undefined || !comparison.failOnRegression ? undefined : comparison.regressed === 0,
  };
}

/**
 * Sets the report's verdict and each case's: a case fails when it counts against a gate that failed (see
 * `CaseFailure`), so the JUnit file agrees with the exit code.
 */
export function withVerdicts(report: EvalReport): EvalReport {
  const gates = gateVerdicts(report);
  const passed = gates.coverage && gates.correct !== false && gates.regression !== false;
  const regressed = new Set(
    (report.baseline?.changed ?? []).filter((entry) => entry.regressed).map((entry) => entry.label),
  );
  const cases = report.cases.map(({ failures: _failures, passed: _passed, ...entry }): ReportCase => {
    const failures: CaseFailure[] = [];
    if (!passed && entry.error !== undefined) failures.push("errored");
    if (
      !gates.coverage &&
      entry.error === undefined &&
      !meetsThreshold(entry.coverage ?? 0, report.minCoverage)
    )
      failures.push("below_min_coverage");
    if (gates.correct === false && entry.correct === false) failures.push("not_correct");
    if (gates.regression === false && regressed.has(entry.label)) failures.push("regressed");
    return failures.length === 0 ? { ...entry, passed: true } : { ...entry, failures, passed: false };
  });
  return { ...report, passed, cases };
}

/**
 * Builds the report of an eval run. The gate passes when `coverageMean >= minCoverage` (and `correctRate >=
 * minCorrect` when that is set); a run in which every case errored never passes, since its `coverageMean` of
 * 0 measures nothing.
 */
export function buildEvalReport(
  result: EvalAllResult,
  run: { dataset: string; model: string; mode: MatchMode; minCoverage: number; minCorrect?: number },
): EvalReport {
  const cases = result.cases.map((entry, index): ReportCase => {
    const named = {
      index,
      ...(entry.id === undefined ? {} : { id: entry.id }),
      label: entry.id ?? `#${index + 1}`,
    };
    if (entry.error !== undefined) return { ...named, error: entry.error, passed: true };
    return {
      ...named,
      coverage: entry.coverage,
      citations: entry.citations,
      unsupported: entry.unsupported,
      ...(entry.correct === undefined ? {} : { correct: entry.correct }),
      ...(entry.match === undefined ? {} : { match: entry.match }),
      ...(entry.result !== undefined && entry.result.unsupported.length > 0
        ? { dropped: entry.result.unsupported }
        : {}),
      ...(entry.resultOmitted !== undefined && entry.unsupported > 0
        ? { droppedNotListed: entry.unsupported }
        : {}),
      passed: true,
    };
  });
  return withVerdicts({
    ...run,
    passed: true,
    aggregate: result.aggregate,
    usage: result.usage,
    cases,
  });
}

// The comparison with a baseline report (built by compare-baseline.ts) is part of the report.
/** One case of a baseline report: its label (id, or `#N`), its coverage (null when it errored), its dropped claims. */
export interface BaselineCase {
  label: string;
  coverage: number | null;
  dropped: UnsupportedClaim[];
  /** Whether the case was correct; null when it had no `expected` (or errored). */
  correct: boolean | null;
}

/** How one case moved against the baseline. */
export interface CaseChange {
  label: string;
  /** Coverage in the baseline; null when the case errored there. */
  before: number | null;
  /** Coverage now; null when the case errored. */
  after: number | null;
  /** `after - before`, an errored side counting as 0. */
  change: number;
  /** Lost more than the tolerance, or errored now and not before. */
  regressed: boolean;
  /** Claims dropped now that were not dropped in the baseline (compared by claim text). */
  newlyFailed: UnsupportedClaim[];
  /** `lost`: correct in the baseline, not now (a regression); `gained`: the other way round. */
  correctness?: "lost" | "gained";
}

/** The comparison of a run with `--baseline`: what changed, case by case (by id, else by position). */
export interface BaselineComparison {
  file: string;
  tolerance: number;
  /** Whether regressions fail the run (`--fail-on-regression`). */
  failOnRegression: boolean;
  /** How many cases regressed (lost coverage beyond the tolerance, errored anew, or are no longer correct). */
  regressed: number;
  /** Changed cases: regressed ones first (largest loss first), then the other changes. */
  changed: CaseChange[];
  /** Labels of cases in this run only. */
  added: string[];
  /** Labels of cases in the baseline only. */
  removed: string[];
  /** Cases in both whose coverage and dropped claims are the same. */
  unchanged: number;
}
