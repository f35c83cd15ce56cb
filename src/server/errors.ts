import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
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

/**
 * Answers a request Node's HTTP parser refused (a malformed request line or header, headers over the size
 * limit, a request that never finished arriving) with the service's own error body. Fastify's default
 * writes `{"error":"Bad Request","message":"Client Error","statusCode":400}`, which is neither the documented
 * envelope nor anonymous: that exact body names the framework.
 */
export function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const serviceError =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? // VERIFIED_REQUEST_TIMEOUT_MS passed before the whole request (headers and body) arrived.
        new ServiceError(
          "request_timeout",
          "The request did not arrive in time: headers and body must arrive within the service's request timeout.",
        )
      : new ServiceError(
          "invalid_request",
          error.code === "HPE_HEADER_OVERFLOW"
            ? "The request's headers are larger than the server accepts."
            : "The request is not valid HTTP.",
        );
  const body = JSON.stringify(serviceError.toBody());
  // An answer already under way on this socket cannot be followed by another one.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    socket.write(
      `HTTP/1.1 ${serviceError.status} ${STATUS_CODES[serviceError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
