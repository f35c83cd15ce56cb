import type { ErrorType } from "../errors/index.js";
import {
  AuthenticationError,
  ExtractionFailedError,
  GatewayError,
  GatewayTimeoutError,
  InsufficientQuotaError,
  InternalServerError,
  InvalidRequestError,
  MethodNotAllowedError,
  ModelNotFoundError,
  NoSourcesError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitError,
  RequestTimeoutError,
  ShuttingDownError,
  SourcesTooLargeError,
  TooManyCasesError,
  UngroundedError,
  UnsupportedMediaTypeError,
  VerifiedError,
  type VerifiedErrorInit,
} from "./errors.js";
import type { UnsupportedClaim } from "./types.js";

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
  const { type, code, message, param, unsupported } = parsed.error;
  const body: ParsedErrorBody = {};
  if (typeof type === "string") body.type = type;
  else if (typeof code === "string") body.type = code;
  if (typeof message === "string") body.message = message;
  if (typeof param === "string") body.param = param;
  if (Array.isArray(unsupported)) body.unsupported = unsupported as UnsupportedClaim[];
  return body;
}

function describeBareResponse(status: number, bodyText: string): string {
  const excerpt = bodyText.trim().slice(0, 200);
  return excerpt === ""
    ? `The service answered HTTP ${status} with no error body.`
    : `The service answered HTTP ${status} without a JSON error body: ${excerpt}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
