/** The scores of one eval case that finished. */
export interface CaseScore {
  coverage: number;
  citations: number;
  unsupported: number;
  /** Whether an expected answer is in the grounded claims; absent when the case gave no `expected`. */
  correct?: boolean | undefined;
}

/** The aggregate of an eval run (the wire's `aggregate`, in camelCase). */
export interface EvalAggregate {
  coverageMean: number;
  unsupportedRate: number;
  n: number;
  errored: number;
  /**
   * Correct cases over the cases without an error that carry `expected`; absent when no such case is
   * left, so a run without `expected` aggregates as before.
   */
  correctRate?: number;
}

/**
 * The one eval aggregation, used by the service for a request and by the client to merge pages:
 * `coverageMean` is the mean over cases without an error (not a mean of page means), `unsupportedRate` is
 * total unsupported claims over total claims; both are 0 when no case is left. `correctRate` is correct cases
 * over the scored cases with `expected` (absent when there are none). O(cases).
 */
export function aggregateCases(cases: readonly (CaseScore | { error: unknown })[]): EvalAggregate {
  let coverageSum = 0;
  let scored = 0;
  let unsupported = 0;
  let claims = 0;
  let judged = 0;
  let correct = 0;
  for (const entry of cases) {
    if ("error" in entry && entry.error !== undefined) continue;
    const score = entry as CaseScore;
    scored += 1;
    coverageSum += score.coverage;
    unsupported += score.unsupported;
    claims += score.citations + score.unsupported;
    if (score.correct !== undefined) {
      judged += 1;
      if (score.correct) correct += 1;
    }
  }
  return {
    coverageMean: scored === 0 ? 0 : coverageSum / scored,
    unsupportedRate: claims === 0 ? 0 : unsupported / claims,
    n: cases.length,
    errored: cases.length - scored,
    ...(judged === 0 ? {} : { correctRate: correct / judged }),
  };
}
