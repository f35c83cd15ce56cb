import {
  assembleClaims,
  type CandidateClaim,
  type ClaimCheckOptions,
  type ClaimsResult,
  type ClaimVerdict,
  judgeClaimSlices,
  judgeClaimSteps,
  type SourcesInput,
} from "../core/index.js";
import { CLAIM_CHECK_SLICE_WORK } from "../limits.js";
import { nextTurn, runStepsYielding } from "../models/index.js";

/**
 * `judgeClaims` with a turn of the event loop after each slice of about `CLAIM_CHECK_SLICE_WORK` of work:
 * many claims against a large source cost claims × source length, which would otherwise hold the event loop
 * for seconds. Same verdicts, in order. `turn` is for tests that count the turns.
 */
export function judgeClaimsYielding(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
  signal?: AbortSignal,
  turn?: () => Promise<unknown>,
): Promise<ClaimVerdict[]> {
  return runStepsYielding(judgeClaimSteps(sources, claims, options, CLAIM_CHECK_SLICE_WORK), signal, turn);
}

/** `verifyClaims` with turns of the event loop between slices (see `judgeClaimsYielding`). */
export async function verifyClaimsYielding(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
  signal?: AbortSignal,
  turn?: () => Promise<unknown>,
): Promise<ClaimsResult> {
  return assembleClaims(await judgeClaimsYielding(sources, claims, options, signal, turn));
}

/**
 * `judgeClaimsYielding` that hands each slice's verdicts to `onSlice` as soon as it is judged, before the turn
 * that precedes the next slice: a streamed create reports claims while later ones are still being checked. The
 * next slice waits for what `onSlice` returns (a slow reader of the events holds back the check).
 */
export async function judgeClaimsReporting(
  sources: SourcesInput,
  claims: readonly CandidateClaim[],
  options: ClaimCheckOptions,
  onSlice: (verdicts: ClaimVerdict[]) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const slices = judgeClaimSlices(sources, claims, options, CLAIM_CHECK_SLICE_WORK);
  for (;;) {
    const next = slices.next();
    await onSlice(next.value);
    if (next.done === true) return;
    await nextTurn();
    signal?.throwIfAborted();
  }
}
