import type {
  CallUsage,
  EvalAggregate,
  EvalAllResult,
  EvalCaseError,
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
  /** Not errored and coverage at least `minCoverage`. */
  passed: boolean;
}

/** Everything `verified eval` prints and writes: the run, its aggregate, the gate and every case. */
export interface EvalReport {
  dataset: string;
  model: string;
  mode: MatchMode;
  minCoverage: number;
  /** The gate: `coverageMean >= minCoverage`, and at least one case scored. */
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

/**
 * Builds the report of an eval run. The gate passes when `coverageMean >= minCoverage`; a run in which every
 * case errored never passes, since its `coverageMean` of 0 measures nothing.
 */
export function buildEvalReport(
  result: EvalAllResult,
  run: { dataset: string; model: string; mode: MatchMode; minCoverage: number },
): EvalReport {
  const meets = (coverage: number) => meetsThreshold(coverage, run.minCoverage);
  const cases = result.cases.map((entry, index): ReportCase => {
    const named = {
      index,
      ...(entry.id === undefined ? {} : { id: entry.id }),
      label: entry.id ?? `#${index + 1}`,
    };
    if (entry.error !== undefined) return { ...named, error: entry.error, passed: false };
    return {
      ...named,
      coverage: entry.coverage,
      citations: entry.citations,
      unsupported: entry.unsupported,
      ...(entry.result !== undefined && entry.result.unsupported.length > 0
        ? { dropped: entry.result.unsupported }
        : {}),
      passed: meets(entry.coverage),
    };
  });
  const scored = result.aggregate.n - result.aggregate.errored;
  return {
    ...run,
    passed: scored > 0 && meets(result.aggregate.coverageMean),
    aggregate: result.aggregate,
    usage: result.usage,
    cases,
  };
}

// The comparison with a baseline report (built by compare-baseline.ts) is part of the report.
/** One case of a baseline report: its label (id, or `#N`), its coverage (null when it errored), its dropped claims. */
export interface BaselineCase {
  label: string;
  coverage: number | null;
  dropped: UnsupportedClaim[];
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
}

/** The comparison of a run with `--baseline`: what changed, case by case (by id, else by position). */
export interface BaselineComparison {
  file: string;
  tolerance: number;
  /** Whether regressions fail the run (`--fail-on-regression`). */
  failOnRegression: boolean;
  /** How many cases regressed. */
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
