import { createParser } from "eventsource-parser";
import { isRecord } from "../../util.js";
import type { GenerateResult } from "../types.js";
import { partText, usageOf } from "./completion.js";

/**
 * A streamed Chat Completions answer read to its end: the content and usage, the body of an `error` event the
 * gateway sent mid-stream (mapped like a 200 carrying an error object), or why the stream is unusable.
 */
export type StreamedCompletion =
  | { ok: true; value: GenerateResult }
  | { ok: false; kind: "error_object"; bodyText: string }
  | { ok: false; kind: "malformed"; reason: string }
  | { ok: false; kind: "too_large"; bytesRead: number };

/** The longest single event kept while it arrives; longer ones are refused like an oversized body. */
const maxEventChars = 1024 * 1024;

/** One event of a server-sent event stream: its `data` as the gateway wrote it, and its `event` name if any. */
export interface StreamEvent {
  data: string;
  event: string | undefined;
}

/**
 * How an event stream read by `readEventStream` ended: at `data: [DONE]`, at the body's end without it, or
 * refused past the byte cap (the whole stream's, or one event's).
 */
export type EventStreamEnd = { kind: "done" } | { kind: "ended" } | { kind: "too_large"; bytesRead: number };

/**
 * Reads a server-sent event stream from `chunks`, yielding each event but `data: [DONE]` as it completes.
 * Comments, multi-line `data`, CR/LF line ends and events split anywhere across chunks are handled by
 * eventsource-parser. It stops reading at `[DONE]`, past `maxBytes` of body or at an event longer than 1 MiB
 * (closing the connection), and returns how the stream ended; an event left without its blank line at the
 * body's end is incomplete and not yielded. Network errors are rethrown. O(bytes) time; memory is
 * one chunk's events.
 */
export async function* readEventStream(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<StreamEvent, EventStreamEnd> {
  const decoder = new TextDecoder();
  const queued: StreamEvent[] = [];
  let done = false;
  let tooLong = false;
  let bytesRead = 0;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent(event) {
      if (done || tooLong) return;
      if (event.data === "[DONE]") done = true;
      else queued.push({ data: event.data, event: event.event });
    },
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") tooLong = true;
    },
  });
  // Leaving the loop (at [DONE], past the cap, or the caller gone) closes the connection.
  for await (const chunk of chunks) {
    bytesRead += chunk.byteLength;
    if (bytesRead > maxBytes) return { kind: "too_large", bytesRead };
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (queued.length > 0) yield queued.shift() as StreamEvent;
    if (tooLong) return { kind: "too_large", bytesRead };
    if (done) return { kind: "done" };
  }
  parser.feed(decoder.decode());
  parser.reset({ consume: true });
  while (queued.length > 0) yield queued.shift() as StreamEvent;
  if (tooLong) return { kind: "too_large", bytesRead };
  return done ? { kind: "done" } : { kind: "ended" };
}

/**
 * Reads an OpenAI-style event stream (`data: {chunk}` events ending with `data: [DONE]`, `readEventStream`)
 * from `chunks`, calling `onText` with each piece of content as it arrives. A stream that ends with neither
 * `[DONE]` nor a `finish_reason` was cut off and is malformed; past `maxBytes` it is refused and the
 * connection closed. Network errors (a reset mid-event, an abort) are rethrown. O(bytes) time; memory is the
 * content plus one event.
 */
export async function readCompletionStream(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  onText: (text: string) => void,
): Promise<StreamedCompletion> {
  const content: string[] = [];
  let usage: GenerateResult["usage"] | undefined;
  let invalidUsage: string[] = [];
  let finished = false;
  const events = readEventStream(chunks, maxBytes);
  let end: EventStreamEnd;
  for (;;) {
    const step = await events.next();
    if (step.done === true) {
      end = step.value;
      break;
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(step.value.data);
    } catch {
      await events.return({ kind: "ended" });
      return { ok: false, kind: "malformed", reason: "sent a stream event that is not JSON" };
    }
    if (!isRecord(chunk)) {
      await events.return({ kind: "ended" });
      return { ok: false, kind: "malformed", reason: "sent a stream event that is not a JSON object" };
    }
    if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) {
      await events.return({ kind: "ended" });
      return { ok: false, kind: "error_object", bodyText: step.value.data };
    }
    if (isRecord(chunk.usage)) {
      // Counts that are not non-negative safe integers are left out, as for a plain answer.
      const { invalid, ...counts } = usageOf(chunk.usage);
      usage = counts;
      invalidUsage = invalid;
    }
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isRecord(choice)) continue;
    const text = deltaText(choice.delta);
    if (text !== "") {
      content.push(text);
      onText(text);
    }
    if (typeof choice.finish_reason === "string") finished = true;
  }
  if (end.kind === "too_large") return { ok: false, kind: "too_large", bytesRead: end.bytesRead };
  if (end.kind === "ended" && !finished) {
    return {
      ok: false,
      kind: "malformed",
      reason:
        content.length === 0 && usage === undefined
          ? "ended its event stream without any event"
          : "ended its event stream before the answer was finished",
    };
  }
  return {
    ok: true,
    value: {
      content: content.join(""),
      usage: usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      ...(invalidUsage.length > 0 ? { invalidUsage } : {}),
    },
  };
}

function deltaText(delta: unknown): string {
  if (!isRecord(delta)) return "";
  const { content } = delta;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(partText).join("");
  return "";
}
