import { MAX_RETRY_AFTER_SECONDS } from "../../limits.js";

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
