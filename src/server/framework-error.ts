import { ServiceError } from "../errors/index.js";

/** Turns any error thrown while handling a request into a ServiceError with a stable type. */
export function mapFrameworkError(error: unknown, bodyLimitBytes?: number): ServiceError {
  if (error instanceof ServiceError) return error;
  const { code, statusCode } = (error ?? {}) as { code?: string; statusCode?: number };
  switch (code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ServiceError(
        "payload_too_large",
        bodyLimitBytes
          ? `The request body is larger than ${bodyLimitBytes / 1024 / 1024} MiB, this endpoint's limit.`
          : "The request body is larger than this endpoint's limit.",
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ServiceError(
        "unsupported_media_type",
        'Send the body as JSON with "Content-Type: application/json".',
      );
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new ServiceError("invalid_request", "The body is empty; send a JSON object.");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      // Fastify reports `__proto__`/`constructor` keys (refused against prototype pollution) this way too.
      return new ServiceError(
        "invalid_request",
        'The body is not valid JSON, or it holds a "__proto__" or "constructor" key, which is not allowed.',
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return new ServiceError("invalid_request", "The Content-Length header does not match the body.");
    default:
      break;
  }
  if (error instanceof SyntaxError || (statusCode !== undefined && statusCode >= 400 && statusCode < 500)) {
    // Fastify reports JSON syntax errors and `__proto__` keys as 400s of its own.
    const message =
      error instanceof Error && /proto|constructor/i.test(error.message)
        ? 'The body has a "__proto__" or "constructor" key, which is not allowed.'
        : "The body is not valid JSON.";
    return new ServiceError("invalid_request", message);
  }
  return new ServiceError("internal_error");
}
