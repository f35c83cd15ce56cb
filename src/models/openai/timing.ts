import { MAX_RETRY_AFTER_SECONDS } from "../../limits.js";

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

/**
 * Seconds to wait, from a gateway's `Retry-After` (delta-seconds or an HTTP date) or, failing that, the
 * `retry-after-ms` header some OpenAI-compatible gateways send. Rounded up to whole seconds, never negative,
 * at most `MAX_RETRY_AFTER_SECONDS` (a gateway's `1e23` is not forwarded); undefined when neither header holds a
 * usable value.
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const seconds = readSeconds(headers, nowMs);
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_SECONDS);
}

function readSeconds(headers: Headers, nowMs: number): number | undefined {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter !== undefined && retryAfter !== "") {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.ceil(Number(retryAfter));
    const dateMs = Date.parse(retryAfter);
    // Only a date that names its zone (GMT per RFC 9110) is trusted; a bare number like "-1" is not a date.
    if (!Number.isNaN(dateMs) && /[A-Za-z]/.test(retryAfter)) {
      return Math.max(0, Math.ceil((dateMs - nowMs) / 1000));
    }
  }
  const retryAfterMs = headers.get("retry-after-ms")?.trim();
  if (retryAfterMs !== undefined && /^\d+(\.\d+)?$/.test(retryAfterMs)) {
    return Math.ceil(Number(retryAfterMs) / 1000);
  }
  return undefined;
}
