import { Writable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { createEventStream } from "./event-stream.js";

/**
 * A response whose reader takes nothing until `release`: each write waits, so the buffer grows past its
 * high-water mark (1 KiB) as a slow reader's would.
 */
function slowResponse() {
  const held: (() => void)[] = [];
  let written = 0;
  const raw = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      written += chunk.length;
      held.push(callback);
    },
  });
  Object.assign(raw, { writeHead: () => raw, flushHeaders: () => {} });
  const reply = { raw, hijack: () => {}, elapsedTime: 0 } as unknown as FastifyReply;
  const request = { id: "req_1", verified: {}, log: { error: () => {} } } as unknown as FastifyRequest;
  return {
    // A backlog of 2 KiB before a writer waits (the service's is STREAM_BACKLOG_BYTES).
    stream: createEventStream(request, reply, 60_000, 2048),
    raw,
    /** Lets the reader take everything written so far. */
    release: () => {
      for (const callback of held.splice(0)) callback();
    },
    written: () => written,
  };
}

describe("createEventStream", () => {
  it("tells a writer to wait while the reader has not taken the buffer, and when it has", async () => {
    const { stream, release, raw } = slowResponse();
    stream.send("claim", { text: "a".repeat(100) });
    // The pass's events are written at its end.
    await Promise.resolve();
    // Under the backlog: no need to wait.
    expect(stream.drained()).toBeUndefined();
    stream.send("claim", { text: "a".repeat(3000) });
    await Promise.resolve();
    const waiting = stream.drained();
    expect(waiting).toBeInstanceOf(Promise);
    let drained = false;
    void waiting?.then(() => {
      drained = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    release();
    await waiting;
    expect(raw.writableLength).toBe(0);
    stream.end();
  });

  it("writes the events sent in one pass of the event loop together, in order, in one write", async () => {
    const { stream, release, raw } = slowResponse();
    const writes: string[] = [];
    const original = raw.write.bind(raw);
    raw.write = ((chunk: string) => {
      writes.push(chunk);
      return original(chunk);
    }) as typeof raw.write;
    for (let index = 0; index < 10; index++) stream.send("claim", { index });
    stream.send("done", { last: true });
    await Promise.resolve();
    // Before, each event was a write of its own: eleven.
    expect(writes).toHaveLength(1);
    const events = (writes[0] as string).split("\n\n").filter((event) => event !== "");
    expect(events.at(0)).toBe('event: claim\ndata: {"index":0}');
    expect(events.at(-1)).toBe('event: done\ndata: {"last":true}');
    expect(events).toHaveLength(11);
    release();
    stream.end();
  });

  it("writes each chunk of a chunked event once the reader has taken the one before", async () => {
    const { stream, release, written } = slowResponse();
    const chunk = "x".repeat(4096);
    let given = 0;
    async function* chunks() {
      for (let index = 0; index < 8; index++) {
        given += 1;
        yield chunk;
      }
    }
    const sending = stream.sendChunks("done", chunks());
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    // Before, all eight chunks (32 KiB) were written at once into a buffer of 1 KiB.
    expect(given).toBe(1);
    while (given < 8 || written() < 8 * chunk.length) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    release();
    await sending;
    expect(given).toBe(8);
    stream.end();
  });
});
