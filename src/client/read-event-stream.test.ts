import { describe, expect, it } from "vitest";
import { readEventStream } from "./read-event-stream.js";

function body(text: string, cuts: readonly number[] = []): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const points = [...cuts, bytes.byteLength];
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const point of points) {
        controller.enqueue(bytes.subarray(from, point));
        from = point;
      }
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>) {
  const events = [];
  for await (const event of readEventStream(stream)) events.push(event);
  return events;
}

describe("readEventStream", () => {
  const text =
    ': keep-alive\n\nevent: claim\ndata: {"claim": "Grüße ✓"}\n\r\nevent: done\r\ndata: {"a":\rdata: 1}\r\rdata:x\n\nevent: cut\ndata: {"half';

  it("reads named events, comments, multi-line data and every line ending, and drops a cut event", async () => {
    expect(await all(body(text))).toEqual([
      { event: "claim", data: '{"claim": "Grüße ✓"}' },
      { event: "done", data: '{"a":\n1}' },
      { event: "message", data: "x" },
    ]);
  });

  it("gives the same events whatever byte the body is cut at", async () => {
    const whole = await all(body(text));
    const length = new TextEncoder().encode(text).byteLength;
    for (let cut = 0; cut <= length; cut += 1) expect(await all(body(text, [cut]))).toEqual(whole);
  });
});
