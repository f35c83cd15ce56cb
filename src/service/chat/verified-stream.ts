import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ServiceError } from "../../errors/index.js";
import { contentText } from "../../models/index.js";
import { isRecord } from "../../util.js";
import type { VerificationReport } from "../../wire/index.js";

/** What a verified stream does once the answer is complete. */
export interface StreamSettlement {
  /** Checks the whole answer (the first choice's content) and reports it. */
  settle(answer: string): Promise<VerificationReport>;
  /** `action: "block"`: an answer that fails ends the stream with an `error` event instead of the report. */
  block: boolean;
  /** The error of a blocked answer. */
  blocked(report: VerificationReport): ServiceError;
}

/** The longest single event read from the gateway (as for create's streams). */
const maxEventChars = 1024 * 1024;

/**
 * Relays a gateway's Chat Completions event stream event by event, each `data:` as the gateway wrote it, while
 * gathering the first choice's content; at `data: [DONE]` (or the stream's end) the answer is checked and one
 * more `chat.completion.chunk` goes out before `[DONE]`: `choices: []`, the stream's `id`, `created` and
 * `model`, and `verification`. A blocked answer, or a check that fails, ends with a top-level `error` event
 * (which SDKs throw) instead; an `error` the gateway sent ends the stream as it is. O(bytes) plus the check.
 */
export async function* verifiedChatStream(
  chunks: AsyncIterable<Uint8Array>,
  settlement: StreamSettlement,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const ready: string[] = [];
  const content: string[] = [];
  const head: { id?: unknown; created?: unknown; model?: unknown } = {};
  let done = false;
  let failed = false;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent(event: EventSourceMessage) {
      if (done || failed) return;
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      const chunk = parseChunk(event.data);
      if (chunk !== undefined) {
        if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) failed = true;
        if (head.id === undefined) {
          head.id = chunk.id;
          head.created = chunk.created;
          head.model = chunk.model;
        }
        const text = firstChoiceText(chunk);
        if (text !== "") content.push(text);
      }
      ready.push(`${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`);
    },
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") failed = true;
    },
  });
  for await (const chunk of chunks) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    while (ready.length > 0) yield ready.shift() as string;
    if (done || failed) break;
  }
  if (!done && !failed) {
    parser.feed(decoder.decode());
    parser.reset({ consume: true });
    while (ready.length > 0) yield ready.shift() as string;
  }
  if (failed) return;
  let report: VerificationReport;
  try {
    report = await settlement.settle(content.join(""));
  } catch (error) {
    const serviceError =
      error instanceof ServiceError
        ? error
        : new ServiceError("internal_error", "The answer could not be checked.");
    yield `data: ${JSON.stringify(serviceError.toBody())}\n\n`;
    return;
  }
  if (settlement.block && report.verdict === "fail") {
    yield `data: ${JSON.stringify(settlement.blocked(report).toBody())}\n\n`;
    return;
  }
  const last = { ...head, object: "chat.completion.chunk", choices: [], verification: report };
  yield `data: ${JSON.stringify(last)}\n\n`;
  yield "data: [DONE]\n\n";
}

function parseChunk(data: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The content text of choice 0 in a chunk (a delta), or in a whole completion (a message). */
export function firstChoiceText(chunk: Record<string, unknown>): string {
  if (!Array.isArray(chunk.choices)) return "";
  const choice = chunk.choices.find((entry) => isRecord(entry) && (entry.index ?? 0) === 0);
  if (!isRecord(choice)) return "";
  const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
  return part === undefined ? "" : (contentText(part.content) ?? "");
}
