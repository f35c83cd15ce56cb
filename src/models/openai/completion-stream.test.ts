import { describe, expect, it } from "vitest";
import { readCompletionStream, readEventStream } from "./completion-stream.js";

const encoder = new TextEncoder();

/** The bytes of `text` cut at `cuts`, as an async iterable of chunks. */
async function* chunksOf(text: string, cuts: readonly number[] = []): AsyncGenerator<Uint8Array> {
  const bytes = encoder.encode(text);
  let from = 0;
  for (const cut of [...cuts, bytes.byteLength]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

/** Chunks that throw (a reset connection) after `text`. */
async function* cutAfter(text: string): AsyncGenerator<Uint8Array> {
  yield encoder.encode(text);
  throw Object.assign(new Error("aborted"), { code: "ECONNRESET" });
}

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`;
const done = "data: [DONE]\n\n";

async function read(chunks: AsyncIterable<Uint8Array>, maxBytes = 1 << 20) {
  const pieces: string[] = [];
  const result = await readCompletionStream(chunks, maxBytes, (text) => pieces.push(text));
  return { result, pieces };
}

describe("readCompletionStream", () => {
  it("joins the content deltas, reads the usage chunk and stops at [DONE]", async () => {
    const body = chunk("") + chunk('{"cla') + chunk('ims": []}') + chunk(null, "stop") + usageChunk + done;

    const { result, pieces } = await read(chunksOf(body));

    expect(result).toEqual({
      ok: true,
      value: { content: '{"claims": []}', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 } },
    });
    expect(pieces).toEqual(['{"cla', 'ims": []}']);
  });

  it("gives the same result and pieces whatever byte the body is cut at, inside UTF-8 sequences too", async () => {
    const body = `${chunk("Grüße, ")}: a comment\n\n${chunk("日本 ✓")}\r\n${chunk(null, "stop")}${usageChunk}${done}`;
    const whole = await read(chunksOf(body));
    const length = encoder.encode(body).byteLength;

    for (let cut = 0; cut <= length; cut += 1) {
      expect(await read(chunksOf(body, [cut]))).toEqual(whole);
    }
    expect(whole.result).toMatchObject({ ok: true, value: { content: "Grüße, 日本 ✓" } });
  });

  it("reads multi-line data, CRLF line ends, comments and named events", async () => {
    const body =
      ': heartbeat\r\n\r\nevent: message\r\ndata: {"choices": [{"delta":\r\ndata:  {"content": "a"}}]}\r\n\r\n' +
      `${chunk(null, "stop")}${done}`;

    const { result } = await read(chunksOf(body));

    expect(result).toEqual({
      ok: true,
      value: { content: "a", usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 } },
    });
  });

  it("accepts a stream that ends after its finish_reason without [DONE]", async () => {
    const { result } = await read(chunksOf(chunk("x") + chunk(null, "stop")));

    expect(result).toMatchObject({ ok: true, value: { content: "x" } });
  });

  it("ignores whatever follows [DONE]", async () => {
    const { result } = await read(chunksOf(`${chunk("x")}${done}data: not json\n\n`));

    expect(result).toMatchObject({ ok: true, value: { content: "x" } });
  });

  it.each([
    [
      "cut mid-event",
      chunk("x") + chunk("y").slice(0, 20),
      "ended its event stream before the answer was finished",
    ],
    ["cut between events", chunk("x"), "ended its event stream before the answer was finished"],
    ["empty", "", "ended its event stream without any event"],
    [
      "an event that is not JSON",
      `${chunk("x")}data: {"choices": [\n\n`,
      "sent a stream event that is not JSON",
    ],
    [
      "an event that is an array",
      `${chunk("x")}data: [1]\n\n`,
      "sent a stream event that is not a JSON object",
    ],
  ])("calls a stream %s malformed", async (_name, body, reason) => {
    const { result } = await read(chunksOf(body));

    expect(result).toEqual({ ok: false, kind: "malformed", reason });
  });

  it("hands over an error object sent mid-stream, after the text before it", async () => {
    const error = JSON.stringify({ error: { message: "Upstream overloaded", code: 502 } });
    const { result, pieces } = await read(chunksOf(`${chunk("x")}data: ${error}\n\n${chunk("y")}`));

    expect(result).toEqual({ ok: false, kind: "error_object", bodyText: error });
    expect(pieces).toEqual(["x"]);
  });

  it("rethrows a connection reset mid-event", async () => {
    await expect(read(cutAfter(chunk("x") + chunk("y").slice(0, 10)))).rejects.toThrow("aborted");
  });

  it("refuses a body past maxBytes, and a single event past the event limit", async () => {
    const big = chunk("a".repeat(2000));

    expect((await read(chunksOf(big + big, [big.length]), 3000)).result).toMatchObject({
      ok: false,
      kind: "too_large",
    });
    const endless = `data: ${"a".repeat(1024 * 1024 + 10)}`;
    expect((await read(chunksOf(endless, [10, 600_000]), 4 << 20)).result).toMatchObject({
      ok: false,
      kind: "too_large",
    });
  });
});

describe("readEventStream", () => {
  async function all(chunks: AsyncIterable<Uint8Array>, maxBytes: number) {
    const events = readEventStream(chunks, maxBytes);
    const seen: string[] = [];
    for (;;) {
      const step = await events.next();
      if (step.done === true) return { seen, end: step.value };
      for (const event of step.value) seen.push(`${event.event ?? ""}|${event.data}`);
    }
  }

  it.each([
    [
      "stops at [DONE], reading nothing after it",
      `data: a\n\nevent: x\ndata: b\n\n${done}data: c\n\n`,
      1000,
      ["|a", "x|b"],
      { kind: "done" },
    ],
    [
      "reads to the end without [DONE], not yielding an event left without its blank line",
      "data: a\n\ndata: b\n",
      1000,
      ["|a"],
      { kind: "ended" },
    ],
    [
      "refuses the stream past the byte cap",
      "data: a\n\ndata: bbbbbbbbbb\n\n",
      12,
      [],
      { kind: "too_large", bytesRead: 27 },
    ],
  ])("%s", async (_name, text, maxBytes, seen, end) => {
    expect(await all(chunksOf(text), maxBytes)).toEqual({ seen, end });
  });

  it("refuses an event longer than 1 MiB, whatever the byte cap", async () => {
    const long = `data: ${"a".repeat(1024 * 1024 + 1)}\n\n`;
    const result = await all(chunksOf(long, [512 * 1024, 1024 * 1024 + 4]), 1 << 30);
    expect(result.end.kind).toBe("too_large");
    expect(result.seen).toEqual([]);
  });

  it("rethrows a network error", async () => {
    await expect(all(cutAfter("data: a\n\n"), 1000)).rejects.toThrow("aborted");
  });
});

describe("readCompletionStream, the first choice", () => {
  it("reads the choice with index 0, whichever choice a chunk carries first", async () => {
    const both = (first: string, second: string) =>
      `data: ${JSON.stringify({
        choices: [
          { index: 1, delta: { content: second }, finish_reason: null },
          { index: 0, delta: { content: first }, finish_reason: null },
        ],
      })}\n\n`;
    const onlyOther = `data: ${JSON.stringify({ choices: [{ index: 1, delta: { content: "zzz" }, finish_reason: null }] })}\n\n`;
    const { result } = await read(
      chunksOf(both("a", "x") + onlyOther + both("b", "y") + chunk(null, "stop") + done),
    );
    expect(result).toMatchObject({ ok: true, value: { content: "ab" } });
  });
});
