import { ConnectionError, RateLimitError, VerifiedError } from "./errors.js";

/** Waits `ms` milliseconds, or less when `signal` aborts; never rejects. Injected in tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** How a call is retried. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  sleep: Sleep;
  /** A number in [0, 1), for jitter. */
  random: () => number;
}

/** First backoff step before jitter. */
export const INITIAL_RETRY_DELAY_MS = 500;
/** Backoff cap before jitter. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** A `Retry-After` longer than this is not waited out: the `RateLimitError` is thrown at once. */
export const MAX_RETRY_AFTER_SECONDS = 60;

/** The default `Sleep`, on `setTimeout`. */
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Whether a failed attempt is worth repeating: 429, any 5xx, and failures with no response (incl. timeout). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof RateLimitError || error instanceof ConnectionError) return true;
  return error instanceof VerifiedError && error.status >= 500;
}

/**
 * How long to wait before retry number `retry` (0 for the first retry), or undefined to give up now.
 * Exponential backoff from 0.5 s, capped at 8 s, with jitter over the upper half of each step.
 */
export function retryDelayMs(retry: number, error: unknown, random: () => number): number | undefined {
  // Retry-After is authoritative when present; one longer than we are willing to wait ends the call.
  if (error instanceof RateLimitError && error.retryAfter !== undefined) {
    return error.retryAfter > MAX_RETRY_AFTER_SECONDS ? undefined : error.retryAfter * 1000;
  }
  const step = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** retry, MAX_RETRY_DELAY_MS);
  return step * (0.5 + random() / 2);
}

/**
 * Runs `attempt`, repeating it on retryable errors as `policy` says. A `signal` abort ends the waiting; the
 * next attempt then sees the aborted signal and rejects.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= policy.maxRetries || !isRetryable(error)) throw error;
      const delayMs = retryDelayMs(retry, error, policy.random);
      if (delayMs === undefined) throw error;
      await policy.sleep(delayMs, signal);
    }
  }
}
