import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ServiceError } from "../errors/index.js";

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
