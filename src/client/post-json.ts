import { maskURLCredentials } from "../util.js";
import {
  AuthenticationError,
  ConnectionError,
  errorFromResponse,
  RateLimitError,
  TimeoutError,
  UserAbortError,
  VerifiedError,
} from "./errors.js";

/** The subset of `fetch` the client uses; `globalThis.fetch`, undici's and most test doubles fit. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Where and how one attempt is sent. */
export interface Transport {
  /** Without a trailing slash. */
  baseURL: string;
  apiKey: string | undefined;
  fetch: FetchLike;
  /** Per attempt, headers and body included. Non-finite or ≤ 0 means no timeout. */
  timeoutMs: number;
}

// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One attempt: POSTs `body` (already on-the-wire JSON) to `path` and resolves with the parsed 200 body; with
 * `body` undefined, GETs `path` instead.
 * Rejects with a typed `VerifiedError`: from the error response, or status 0 when no response arrived.
 */
export async function postJson(
  transport: Transport,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  if (signal?.aborted) throw userAbortError(signal);
  const method = body === undefined ? "GET" : "POST";
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    Number.isFinite(transport.timeoutMs) && transport.timeoutMs > 0
      ? setTimeout(
          () => {
            timedOut = true;
            controller.abort();
          },
          Math.min(transport.timeoutMs, MAX_TIMER_MS),
        )
      : undefined;
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });

  let response: Response;
  let bodyText: string;
  try {
    response = await transport.fetch(`${transport.baseURL}${path}`, {
      method,
      headers: requestHeaders(transport.apiKey, body !== undefined),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: controller.signal,
    });
    bodyText = await response.text();
  } catch (error) {
    if (signal?.aborted) throw userAbortError(signal);
    if (timedOut) {
      throw new TimeoutError({
        type: "timeout",
        status: 0,
        message: `${method} ${path} did not complete within ${transport.timeoutMs} ms; raise \`timeout\` for long runs.`,
        cause: error,
      });
    }
    throw new ConnectionError({
      type: "connection_error",
      status: 0,
      message: connectionFailure("Could not reach the service at", transport.baseURL, error),
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forwardAbort);
  }

  if (!response.ok) {
    const error = errorFromResponse({ status: response.status, headers: response.headers, bodyText });
    if (error instanceof AuthenticationError && transport.apiKey === undefined) {
      error.message += " No API key was sent: pass `apiKey` to `new Verified()` or set VERIFIED_API_KEY.";
    }
    throw error;
  }
  try {
    return JSON.parse(bodyText);
  } catch (error) {
    throw new VerifiedError({
      type: "invalid_response",
      status: response.status,
      message: `${method} ${path} answered ${response.status} with a body that is not JSON.`,
      headers: response.headers,
      cause: error,
    });
  }
}

/** The error a call rejects with when the caller's signal aborted it. */
export function userAbortError(signal: AbortSignal): UserAbortError {
  return new UserAbortError({
    type: "aborted",
    status: 0,
    message: "The request was aborted by its signal.",
    cause: signal.reason,
  });
}

function requestHeaders(apiKey: string | undefined, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (hasBody) headers["content-type"] = "application/json";
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  return headers;
}

/** The most specific thing a failed fetch says: its message, with the socket error from its `cause`. */
export function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node's fetch hides the socket error (ECONNREFUSED …) in `cause`.
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== ""
    ? `${error.message} (${cause.message})`
    : error.message;
}

/**
 * What a person reads when the service could not be reached: `lead` and the base URL, then the cause, with the
 * base URL's `user:password` masked everywhere (fetch quotes the whole URL when it refuses one with credentials).
 */
export function connectionFailure(lead: string, baseURL: string, error: unknown): string {
  let message = `${lead} ${maskURLCredentials(baseURL)}: ${describeCause(error)}`;
  for (const credentials of urlCredentials(baseURL)) message = message.split(credentials).join("***");
  return message;
}

/** The user info of `url` as written and as a URL parser prints it; none when it has none. */
function urlCredentials(url: string): string[] {
  const masked = maskURLCredentials(url);
  if (masked === url) return [];
  const start = url.indexOf("://") + 3;
  const written = url.slice(start, url.length - (masked.length - start - 3));
  try {
    const parsed = new URL(url);
    const printed = parsed.password === "" ? parsed.username : `${parsed.username}:${parsed.password}`;
    return printed === "" ? [written] : [written, printed];
  } catch {
    return [written];
  }
}

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
