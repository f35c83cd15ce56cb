/**
 * Milliseconds to wait before retry number `attempt` (0 for the first retry): `baseMs × 2^attempt`, half of
 * it fixed and half random ("equal jitter"), so retries from many callers spread out but never come at once.
 * `random` returns a number in [0, 1), like `Math.random`.
 */
export function backoffDelayMs(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = baseMs * 2 ** attempt;
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** One signal for a gateway call that fires at the deadline or when the caller aborts, whichever is first. */
export interface CallDeadline {
  /** Aborted with `timeoutReason()` at the deadline, or with the caller's own reason when the caller aborts. */
  readonly signal: AbortSignal;
  /** Clears the timer and the listener on the caller's signal; call it in `finally`. */
  dispose(): void;
}

/**
 * Combines a deadline of `timeoutMs` with the caller's signal. Written by hand rather than with
 * `AbortSignal.any`/`AbortSignal.timeout` so the timer is cleared the moment the call ends and no listener
 * outlives it, however long the caller's signal lives.
 */
export function createCallDeadline(options: {
  timeoutMs: number;
  callerSignal?: AbortSignal | undefined;
  timeoutReason: () => unknown;
}): CallDeadline {
  const { timeoutMs, callerSignal, timeoutReason } = options;
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const timer = controller.signal.aborted
    ? undefined
    : setTimeout(() => controller.abort(timeoutReason()), timeoutMs);
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
