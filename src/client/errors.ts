import type { UnsupportedClaim } from "./types.js";

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

  constructor(init: VerifiedErrorInit & { unsupported?: UnsupportedClaim[] | undefined }) {
    super(init);
    this.unsupported = init.unsupported ?? [];
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
