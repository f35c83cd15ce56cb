import type { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { writeClientError } from "./errors.js";

/** A socket that records what was written and whether it was destroyed. */
function fakeSocket(state: { destroyed?: boolean; writable?: boolean } = {}) {
  const written: string[] = [];
  const socket = {
    destroyed: state.destroyed ?? false,
    writable: state.writable ?? true,
    write(text: string) {
      written.push(text);
      return true;
    },
    destroy() {
      socket.destroyed = true;
      return socket;
    },
  };
  return { socket: socket as unknown as Socket, written, isDestroyed: () => socket.destroyed };
}

const errorWithCode = (code: string) => Object.assign(new Error(code), { code });

describe("writeClientError", () => {
  it.each([
    { code: "HPE_INVALID_METHOD", message: "The request is not valid HTTP." },
    { code: "HPE_HEADER_OVERFLOW", message: "The request's headers are larger than the server accepts." },
  ])("$code: a 400 with the service's error body, then the connection closes", ({ code, message }) => {
    const { socket, written, isDestroyed } = fakeSocket();

    writeClientError(errorWithCode(code), socket);

    const body = JSON.stringify({ error: { type: "invalid_request", code: "invalid_request", message } });
    expect(written).toEqual([
      "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(isDestroyed()).toBe(true);
  });

  it("ERR_HTTP_REQUEST_TIMEOUT: a 408 request_timeout, then the connection closes", () => {
    const { socket, written, isDestroyed } = fakeSocket();

    writeClientError(errorWithCode("ERR_HTTP_REQUEST_TIMEOUT"), socket);

    const message =
      "The request did not arrive in time: headers and body must arrive within the service's request timeout.";
    const body = JSON.stringify({ error: { type: "request_timeout", code: "request_timeout", message } });
    expect(written).toEqual([
      "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(isDestroyed()).toBe(true);
  });

  it.each([
    { name: "a reset connection", error: errorWithCode("ECONNRESET"), state: {} },
    { name: "a destroyed socket", error: errorWithCode("HPE_INVALID_METHOD"), state: { destroyed: true } },
  ])("writes nothing for $name", ({ error, state }) => {
    const { socket, written } = fakeSocket(state);

    writeClientError(error, socket);

    expect(written).toEqual([]);
  });

  it("only closes a socket that can no longer be written", () => {
    const { socket, written, isDestroyed } = fakeSocket({ writable: false });

    writeClientError(errorWithCode("HPE_INVALID_METHOD"), socket);

    expect(written).toEqual([]);
    expect(isDestroyed()).toBe(true);
  });
});
