import { createParser } from "eventsource-parser";
import { isRecord } from "../../util.js";
import { contentText } from "../relay-by-generate.js";
import type { GenerateResult } from "../types.js";
import { firstChoice, usageOf } from "./completion.js";

/**
 * A streamed Chat Completions answer read to its end: the content and usage, the body of an `error` event the
 * gateway sent mid-stream (mapped like a 200 carrying an error object), or why the stream is unusable.
 */
export type StreamedCompletion =
  | { ok: true; value: GenerateResult }
  | { ok: false; kind: "error_object"; bodyText: string }
  | { ok: false; kind: "malformed"; reason: string }
  | { ok: false; kind: "too_large"; bytesRead: number };

/** Whether a content type is `text/event-stream` (any parameters, any case). */
export function isEventStream(contentType: string | null | undefined): boolean {
  return typeof contentType === "string" && /^\s*text\/event-stream\b/i.test(contentType);
}

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
export type EventStreamEnd =
  | { kind: "done" }
  | { kind: "ended" }
  | { kind: "too_large"; bytesRead: number }
  | { kind: "not_utf8"; chunkStart: number; chunkEnd: number };

/**
 * Reads a server-sent event stream from `chunks`, yielding the events each chunk completes (all but
 * `data: [DONE]`) together, so that a reader relaying them writes once per chunk, not once per event.
 * Comments, multi-line `data`, CR/LF line ends and events split anywhere across chunks are handled by
 * eventsource-parser. It stops reading at `[DONE]`, past `maxBytes` of body or at an event longer than 1 MiB
 * (closing the connection), and returns how the stream ended; an event left without its blank line at the
 * body's end is incomplete and not yielded. With `strictUtf8`, bytes that are not UTF-8 stop it too (they
 * would be read as U+FFFD), naming the chunk that held them. Network errors are rethrown. O(bytes) time;
 * memory is one chunk's events.
 */
export async function* readEventStream(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  { strictUtf8 = false }: { strictUtf8?: boolean } = {},
): AsyncGenerator<StreamEvent[], EventStreamEnd> {
  const decoder = new TextDecoder("utf-8", { fatal: strictUtf8 });
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
  const decode = (chunk?: Uint8Array) => {
    try {
      return decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      // Only a fatal decoder throws: `strictUtf8` and a byte that is not UTF-8.
      return undefined;
    }
  };
  for await (const chunk of chunks) {
    bytesRead += chunk.byteLength;
    if (bytesRead > maxBytes) return { kind: "too_large", bytesRead };
    const text = decode(chunk);
    if (text === undefined)
      return { kind: "not_utf8", chunkStart: bytesRead - chunk.byteLength, chunkEnd: bytesRead };
    parser.feed(text);
    if (queued.length > 0) yield queued.splice(0);
    if (tooLong) return { kind: "too_large", bytesRead };
    if (done) return { kind: "done" };
  }
  const rest = decode();
  if (rest === undefined) return { kind: "not_utf8", chunkStart: bytesRead, chunkEnd: bytesRead };
  parser.feed(rest);
  parser.reset({ consume: true });
  if (queued.length > 0) yield queued.splice(0);
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
    for (const event of step.value) {
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
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
        return { ok: false, kind: "error_object", bodyText: event.data };
      }
      if (isRecord(chunk.usage)) {
        // Counts that are not non-negative safe integers are left out, as for a plain answer.
        const { invalid, ...counts } = usageOf(chunk.usage);
        usage = counts;
        invalidUsage = invalid;
      }
      const choice = firstChoice(chunk.choices);
      if (choice === undefined) continue;
      const text = deltaText(choice.delta);
      if (text !== "") {
        content.push(text);
        onText(text);
      }
      if (typeof choice.finish_reason === "string") finished = true;
    }
  }
  if (end.kind === "too_large") return { ok: false, kind: "too_large", bytesRead: end.bytesRead };
  if (end.kind === "not_utf8")
    return { ok: false, kind: "malformed", reason: "sent bytes that are not UTF-8" };
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
  return isRecord(delta) ? (contentText(delta.content) ?? "") : "";
}
