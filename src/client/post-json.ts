import { errorFromResponse } from "./error-from-response.js";
import {
  AuthenticationError,
  ConnectionError,
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
 * One attempt: POSTs `body` (already on-the-wire JSON) to `path` and resolves with the parsed 200 body.
 * Rejects with a typed `VerifiedError`: from the error response, or status 0 when no response arrived.
 */
export async function postJson(
  transport: Transport,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  if (signal?.aborted) throw userAbortError(signal);
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
      method: "POST",
      headers: requestHeaders(transport.apiKey),
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    bodyText = await response.text();
  } catch (error) {
    if (signal?.aborted) throw userAbortError(signal);
    if (timedOut) {
      throw new TimeoutError({
        type: "timeout",
        status: 0,
        message: `POST ${path} did not complete within ${transport.timeoutMs} ms; raise \`timeout\` for long runs.`,
        cause: error,
      });
    }
    throw new ConnectionError({
      type: "connection_error",
      status: 0,
      message: `Could not reach the service at ${transport.baseURL}: ${describeCause(error)}`,
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
      message: `POST ${path} answered ${response.status} with a body that is not JSON.`,
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

function requestHeaders(apiKey: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
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
