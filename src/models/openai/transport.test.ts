import { describe, expect, it } from "vitest";
import { readBodyWithLimit } from "./transport.js";

/** A stream of the given chunks that records whether it was cancelled and how many chunks were pulled. */
function chunkStream(chunks: Uint8Array[]) {
  const state = { cancelled: false, pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled];
      state.pulled += 1;
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const encode = (text: string) => new TextEncoder().encode(text);

describe("readBodyWithLimit", () => {
  it("reads a body within the limit", async () => {
    const { stream } = chunkStream([encode('{"a":'), encode("1}")]);
    expect(await readBodyWithLimit(stream, 7)).toEqual({ ok: true, bytes: Buffer.from('{"a":1}') });
  });

  it("keeps a multi-byte character split across chunks whole", async () => {
    const bytes = encode("café ✓");
    const { stream } = chunkStream([bytes.slice(0, 4), bytes.slice(4, 6), bytes.slice(6)]);
    const read = await readBodyWithLimit(stream, 100);
    expect(read.ok && read.bytes.toString("utf8")).toBe("café ✓");
  });

  it("reads a null body as empty", async () => {
    expect(await readBodyWithLimit(null, 10)).toEqual({ ok: true, bytes: Buffer.alloc(0) });
  });

  it("stops and cancels the stream once the limit is passed, without reading the rest", async () => {
    const chunks = Array.from({ length: 100 }, () => new Uint8Array(1024));
    const { stream, state } = chunkStream(chunks);
    expect(await readBodyWithLimit(stream, 4096)).toEqual({ ok: false, bytesRead: 5120 });
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(10);
  });

  it("rethrows a read error", async () => {
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new TypeError("terminated"));
      },
    });
    await expect(readBodyWithLimit(stream, 10)).rejects.toThrow("terminated");
  });
});

describe("readBodyWithLimit over chunks", () => {
  it("reads a relayed answer's chunks, and stops past the limit without reading the rest", async () => {
    let pulled = 0;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (let index = 0; index < 100; index++) {
        pulled += 1;
        yield new Uint8Array(1024);
      }
    }
    expect(await readBodyWithLimit(chunks(), 4096)).toEqual({ ok: false, bytesRead: 5120 });
    expect(pulled).toBe(5);
    pulled = 0;
    expect(await readBodyWithLimit(chunks(), 200 * 1024)).toEqual({
      ok: true,
      bytes: Buffer.alloc(100 * 1024),
    });
  });
});
