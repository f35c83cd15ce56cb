import type {
  CallUsage,
  EvalAggregate,
  EvalAllResult,
  EvalCaseError,
  MatchMode,
  UnsupportedClaim,
} from "../client/index.js";
import type { BaselineComparison } from "./compare-baseline.js";

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

// Coverage is a mean of fractions; a threshold written as 0.8 must not fail on 0.7999999999999999.
const EPSILON = 1e-9;

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
