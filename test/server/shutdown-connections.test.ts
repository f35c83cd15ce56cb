import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { closeGracefully } from "../../src/server/index.js";
import { openRawConnection } from "../support/raw-connection.js";
import { startWithoutGateway } from "./harness.js";

// closeGracefully's promise (and so the process's exit) must not wait on what a client does: here each
// connection can end only at the shutdown deadline, because the grace after it is ten minutes. A connection
// that outlived the deadline would hold the close until the test's own timeout.

const TEN_MINUTES_MS = 600_000;

/** A connection on `url` that writes `text` and then nothing more, once connected. */
function slowClient(url: string, text: string) {
  const { socket, closed } = openRawConnection(url, text);
  return { socket, closed, ready: once(socket, "connect") };
}

describe("closeGracefully and clients that never finish", () => {
  it.each([
    ["headers still arriving (no request yet)", "POST /v1/verified HTTP/1.1\r\nHost: x\r\nX-Slow: a"],
    ["a request line only", "POST /v1/verified HTTP/1.1\r\n"],
  ])("ends a connection with %s at the deadline", async (_name, text) => {
    const service = await startWithoutGateway();
    const client = slowClient(service.url, text);
    await client.ready;
    // The server has read what was sent before the close begins.
    await new Promise((resolve) => setImmediate(resolve));
    const closing = closeGracefully(service.app, 1, TEN_MINUTES_MS);
    await client.closed;
    await closing;
    expect(client.socket.destroyed).toBe(true);
  });

  it("answers a body still arriving 503 shutting_down at the deadline and closes its connection", async () => {
    const service = await startWithoutGateway();
    const request = once(service.app.server, "request");
    const client = slowClient(
      service.url,
      "POST /v1/verified HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        "Content-Length: 1000\r\n\r\n{",
    );
    await request;
    // Its onRequest hook (which tracks it) has run by the next pass of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const closing = closeGracefully(service.app, 1, TEN_MINUTES_MS);
    const answer = await client.closed;
    await closing;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toContain('"type":"shutting_down"');
  });
});
