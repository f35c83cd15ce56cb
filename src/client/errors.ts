import type { ErrorType } from "../errors/index.js";
import { isRecord } from "../util.js";
import { fromWire } from "./case-mapping.js";
import type { UnsupportedClaim, VerificationReport } from "./types.js";

/** What every client error carries. */
export interface VerifiedErrorInit {
  /** The service's stable error code (`invalid_key`, `ungrounded` …), or the client's own for status 0. */
  type: string;
  /** HTTP status; 0 when no response arrived (network failure, timeout, abort). */
  status: number;
  message: string;
  /** The request field at fault, as the wire names it (`max_tokens`, `cases`), when one is. */
  param?: string | undefined;
  /** Response headers, when a response arrived. */
  headers?: Headers | undefined;
  cause?: unknown;
}

/** Base class of every error the client throws. */
export class VerifiedError extends Error {
  readonly type: string;
  readonly status: number;
  readonly param: string | undefined;
  readonly headers: Headers | undefined;

  constructor(init: VerifiedErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.type = init.type;
    this.status = init.status;
    this.param = init.param;
    this.headers = init.headers;
  }
}

/** 400 `invalid_request`: the body is malformed, a field is missing or unknown, or a value is out of range. */
export class InvalidRequestError extends VerifiedError {}

/** 400 `no_sources`: `sources` is empty and `allowUngrounded` is off. */
export class NoSourcesError extends InvalidRequestError {}

/** 400 `sources_too_large`: the total source text is over the service's budget. */
export class SourcesTooLargeError extends InvalidRequestError {}

/** 400 `too_many_cases`: more than 200 eval cases in one request; `evalAll` pages for you. */
export class TooManyCasesError extends InvalidRequestError {}

/** 401 `invalid_key`: the API key is missing or refused. */
export class AuthenticationError extends VerifiedError {}

/** 402 `insufficient_quota`: the gateway reports exhausted credits or quota. */
export class InsufficientQuotaError extends VerifiedError {}

/** 404: no such path (`not_found`). */
export class NotFoundError extends VerifiedError {}

/** 404 `model_not_found`: the model is unknown, or no gateway is configured (use `model: "local"`). */
export class ModelNotFoundError extends NotFoundError {}

/** 405 `method_not_allowed`. */
export class MethodNotAllowedError extends VerifiedError {}

/** 413 `payload_too_large`: the request body is over the service's limit. */
export class PayloadTooLargeError extends VerifiedError {}

/** 408 `request_timeout`: the request did not arrive within the service's request timeout. */
export class RequestTimeoutError extends VerifiedError {}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaTypeError extends VerifiedError {}

/** 422 `ungrounded`: no claim could be grounded; `unsupported` lists the claims that failed. */
export class UngroundedError extends VerifiedError {
  readonly unsupported: UnsupportedClaim[];
  /** From `chat.completions.create` with `action: "block"`: the report of the answer that failed. */
  readonly verification: VerificationReport | undefined;

  constructor(
    init: VerifiedErrorInit & {
      unsupported?: UnsupportedClaim[] | undefined;
      verification?: VerificationReport | undefined;
    },
  ) {
    super(init);
    this.unsupported = init.unsupported ?? [];
    this.verification = init.verification;
  }
}

/** 429 `rate_limited`: `retryAfter` is the service's `Retry-After` in seconds, when it sent one. */
export class RateLimitError extends VerifiedError {
  readonly retryAfter: number | undefined;

  constructor(init: VerifiedErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx not otherwise classified (`internal_error`). */
export class InternalServerError extends VerifiedError {}

/** 502 `extraction_failed`: the model's output was unusable after a re-ask. */
export class ExtractionFailedError extends VerifiedError {}

/** 502 `gateway_error`: the model gateway failed. */
export class GatewayError extends VerifiedError {}

/** 503 `shutting_down`: the instance stopped before it finished the request; retrying reaches another. */
export class ShuttingDownError extends VerifiedError {}

/** 504 `gateway_timeout`: the model gateway did not answer in time. */
export class GatewayTimeoutError extends GatewayError {}

/** Status 0, `connection_error`: no response arrived (refused, reset, DNS …); `cause` holds the fetch error. */
export class ConnectionError extends VerifiedError {}

/** Status 0, `timeout`: an attempt took longer than the client's `timeout`. */
export class TimeoutError extends ConnectionError {}

/** Status 0, `aborted`: the caller's `signal` aborted the call. Never retried. */
export class UserAbortError extends VerifiedError {}

type ErrorClass = new (init: VerifiedErrorInit) => VerifiedError;

// Type-only import of the server's registry: the compiler insists on a class for every type it lists.
const classByType: Record<ErrorType, ErrorClass> = {
  invalid_request: InvalidRequestError,
  no_sources: NoSourcesError,
  sources_too_large: SourcesTooLargeError,
  too_many_cases: TooManyCasesError,
  invalid_key: AuthenticationError,
  insufficient_quota: InsufficientQuotaError,
  model_not_found: ModelNotFoundError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  request_timeout: RequestTimeoutError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  ungrounded: UngroundedError,
  rate_limited: RateLimitError,
  internal_error: InternalServerError,
  extraction_failed: ExtractionFailedError,
  gateway_error: GatewayError,
  shutting_down: ShuttingDownError,
  gateway_timeout: GatewayTimeoutError,
};

/** What arrived: the status, the headers and the body text (which may not be JSON, e.g. from a proxy). */
export interface ErrorResponse {
  status: number;
  headers: Headers;
  bodyText: string;
}

/**
 * The one mapping from an HTTP error response to a typed error: by the body's `error.type` when the client
 * knows it, else by status, else the base `VerifiedError`.
 */
export function errorFromResponse(response: ErrorResponse, now: number = Date.now()): VerifiedError {
  const { status, headers } = response;
  const body = parseErrorBody(response.bodyText);
  const fallbackType = typeForStatus(status);
  const type = body?.type ?? fallbackType ?? "unknown_error";
  const init = {
    type,
    status,
    message: body?.message ?? describeBareResponse(status, response.bodyText),
    param: body?.param,
    headers,
    unsupported: body?.unsupported,
    verification: body?.verification,
    retryAfter: parseRetryAfter(headers.get("retry-after"), now),
  };
  const ErrorClass =
    lookup(type) ?? (fallbackType === undefined ? undefined : lookup(fallbackType)) ?? VerifiedError;
  return new ErrorClass(init);
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function lookup(type: string): ErrorClass | undefined {
  return Object.hasOwn(classByType, type) ? classByType[type as ErrorType] : undefined;
}

function typeForStatus(status: number): ErrorType | undefined {
  switch (status) {
    case 400:
      return "invalid_request";
    case 401:
    case 403:
      return "invalid_key";
    case 402:
      return "insufficient_quota";
    case 404:
      return "not_found";
    case 405:
      return "method_not_allowed";
    case 408:
      return "request_timeout";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 422:
      return "ungrounded";
    case 429:
      return "rate_limited";
    case 502:
      return "gateway_error";
    case 504:
      return "gateway_timeout";
    default:
      return status >= 500 ? "internal_error" : undefined;
  }
}

interface ParsedErrorBody {
  type?: string;
  message?: string;
  param?: string;
  unsupported?: UnsupportedClaim[];
  verification?: VerificationReport;
}

/** Reads `{"error": {...}}` leniently: whatever fields have the right type are used. */
function parseErrorBody(text: string): ParsedErrorBody | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !isRecord(parsed.error)) return undefined;
  const { type, code, message, param, unsupported, verification } = parsed.error;
  const body: ParsedErrorBody = {};
  if (typeof type === "string") body.type = type;
  else if (typeof code === "string") body.type = code;
  if (typeof message === "string") body.message = message;
  if (typeof param === "string") body.param = param;
  if (Array.isArray(unsupported)) body.unsupported = unsupported as UnsupportedClaim[];
  if (isRecord(verification)) body.verification = fromWire(verification) as VerificationReport;
  return body;
}

function describeBareResponse(status: number, bodyText: string): string {
  const excerpt = bodyText.trim().slice(0, 200);
  return excerpt === ""
    ? `The service answered HTTP ${status} with no error body.`
    : `The service answered HTTP ${status} without a JSON error body: ${excerpt}`;
}
