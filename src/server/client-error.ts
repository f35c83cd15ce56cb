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
  const message =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "The request's headers are larger than the server accepts."
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "The request did not arrive in time."
        : "The request is not valid HTTP.";
  const serviceError = new ServiceError("invalid_request", message);
  const body = JSON.stringify(serviceError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${serviceError.status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
