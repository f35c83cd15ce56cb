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

/**
 * Reads an OpenAI-style server-sent event stream (`data: {chunk}` events ending with `data: [DONE]`) from
 * `chunks`, calling `onText` with each piece of content as it arrives. Comments, multi-line `data`, CR/LF line
 * ends and events split anywhere across chunks are handled by eventsource-parser. A stream that ends with
 * neither `[DONE]` nor a `finish_reason` was cut off and is malformed; past `maxBytes` it is refused and the
 * connection closed. Network errors (a reset mid-event, an abort) are rethrown. O(bytes) time; memory is the
 * content plus one event.
 */
export async function readCompletionStream(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  onText: (text: string) => void,
): Promise<StreamedCompletion> {
  const decoder = new TextDecoder();
  const content: string[] = [];
  let usage: GenerateResult["usage"] | undefined;
  let invalidUsage: string[] = [];
  let finished = false;
  let done = false;
  let failure: StreamedCompletion | undefined;
  let bytesRead = 0;

  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent(event) {
      if (done || failure !== undefined) return;
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
      } catch {
        failure = { ok: false, kind: "malformed", reason: "sent a stream event that is not JSON" };
        return;
      }
      if (!isRecord(chunk)) {
        failure = { ok: false, kind: "malformed", reason: "sent a stream event that is not a JSON object" };
        return;
      }
      if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) {
        failure = { ok: false, kind: "error_object", bodyText: event.data };
        return;
      }
      if (isRecord(chunk.usage)) {
        // Counts that are not non-negative safe integers are left out, as for a plain answer.
        const { invalid, ...counts } = usageOf(chunk.usage);
        usage = counts;
        invalidUsage = invalid;
      }
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!isRecord(choice)) return;
      const text = deltaText(choice.delta);
      if (text !== "") {
        content.push(text);
        onText(text);
      }
      if (typeof choice.finish_reason === "string") finished = true;
    },
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") failure = { ok: false, kind: "too_large", bytesRead };
    },
  });

  for await (const chunk of chunks) {
    bytesRead += chunk.byteLength;
    if (bytesRead > maxBytes) return { ok: false, kind: "too_large", bytesRead };
    parser.feed(decoder.decode(chunk, { stream: true }));
    // Leaving the loop closes the connection: nothing after [DONE] or a failure is read.
    if (done || failure !== undefined) break;
  }
  if (failure !== undefined) return failure;
  if (!done) {
    parser.feed(decoder.decode());
    // An event the gateway ended without its blank line still counts (some proxies drop the last one).
    parser.reset({ consume: true });
  }
  if (failure !== undefined) return failure;
  if (!done && !finished) {
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
