import type { AnswerResult } from "../../core/index.js";
import { ServiceError } from "../../errors/index.js";
import { MAX_ANSWER_CHARS, MAX_GATEWAY_RESPONSE_BYTES } from "../../limits.js";
import {
  contentText,
  type EventStreamEnd,
  firstChoice,
  readEventStream,
  type StreamEvent,
} from "../../models/index.js";
import { isRecord } from "../../util.js";
import type { VerificationReport, VerificationRequest } from "../../wire/index.js";
import type { ChatSources } from "./chat-sources.js";
import { createStreamCheck } from "./stream-check.js";
import { answerOptionsOf, answerTooLong, blockedAnswer, verificationReport } from "./verify-answer.js";

/** What a verified stream checks, and whom it tells the report. */
export interface ChatStreamCheck {
  found: ChatSources;
  verification: VerificationRequest;
  /** The request's messages: the user's are the question. */
  messages: unknown;
  signal?: AbortSignal | undefined;
  /** Told the report once the answer is checked (for metrics). */
  onReport?: ((report: VerificationReport) => void) | undefined;
}

/**
 * Relays a gateway's Chat Completions event stream event by event, each `data:` as the gateway wrote it, while
 * gathering the first choice's content and checking its sentences as the stream closes them
 * (`createStreamCheck`); at `data: [DONE]` (or the stream's end) the rest is checked, the report assembled
 * (equal to one check of the whole answer), and one more `chat.completion.chunk` goes out before `[DONE]`: `choices: []`, the stream's `id`, `created` and
 * `model`, and `verification`. A blocked answer, or a check that fails, ends with a top-level `error` event
 * (which SDKs throw) instead; an `error` the gateway sent ends the stream as it is.
 *
 * With `hold`, the first choice's content is not relayed as it comes: each sentence is sent (as one content
 * chunk) once it is checked (`createSentenceEvents`), without its unsupported sentences under `remove`, and
 * nothing after the first failing one under `block`; the events that end the choice (`finish_reason`, usage)
 * wait for the held text. O(bytes) plus the checks, which stay linear in sources plus answer.
 */
export async function* verifiedChatStream(
  chunks: AsyncIterable<Uint8Array>,
  check: ChatStreamCheck,
): AsyncGenerator<string> {
  const { found, verification, signal } = check;
  const hold = verification.hold === true;
  const action = verification.action ?? "score";
  const ready: string[] = [];
  /** Held events that end the first choice, sent after its held text. */
  const tail: string[] = [];
  const content: string[] = [];
  const head: { id?: unknown; created?: unknown; model?: unknown } = {};
  let contentChars = 0;
  /** Whether the first choice's `finish_reason` (or a chunk after the choices) has come. */
  let finished = false;
  let failed = false;
  let blocked = false;
  let wake: (() => void) | undefined;

  const contentChunk = (text: string) =>
    `data: ${JSON.stringify({
      ...head,
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }],
    })}\n\n`;
  const options = answerOptionsOf(verification, check.messages);
  // Closed sentences are checked while the stream is relayed: at its end only the last one is left.
  const answerCheck = createStreamCheck(
    found.sources,
    options,
    signal,
    hold ? (piece, checked) => release(piece, checked) : undefined,
  );
  /** Content read but not yet given to the check: it is given after the events that carried it are sent. */
  let unchecked = "";

  /** Sends a checked piece of the held answer (what `action` lets through of it). */
  function release(piece: string, checked: AnswerResult): void {
    if (blocked) return;
    // Without min_coverage one unsupported claim fails the answer: nothing after it is shown.
    if (action === "block" && verification.min_coverage === undefined && checked.unsupported.length > 0) {
      blocked = true;
      return;
    }
    const text = action === "remove" ? keptText(piece, checked) : piece;
    if (text !== "") ready.push(contentChunk(text));
    wake?.();
  }

  /** Takes one event of the gateway's stream: relayed (or held), its first choice's content gathered. */
  const take = (event: StreamEvent) => {
    const line = `${event.event === undefined ? "" : `event: ${event.event}\n`}data: ${event.data}\n\n`;
    const chunk = parseChunk(event.data);
    if (chunk === undefined) {
      ready.push(line);
      return;
    }
    if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) failed = true;
    if (head.id === undefined) {
      head.id = chunk.id;
      head.created = chunk.created;
      head.model = chunk.model;
    }
    if (endsFirstChoice(chunk)) finished = true;
    const text = firstChoiceText(chunk);
    contentChars += text.length;
    // Past check's answer limit the answer is not kept: it cannot be checked (an error ends the stream).
    const keep = text !== "" && contentChars <= MAX_ANSWER_CHARS;
    if (keep) {
      content.push(text);
      unchecked += text;
    }
    if (!hold || failed) {
      ready.push(line);
      return;
    }
    const rest = withoutFirstChoiceContent(chunk);
    if (rest === undefined) return;
    if (endsFirstChoice(chunk)) tail.push(`data: ${JSON.stringify(rest)}\n\n`);
    else ready.push(`data: ${JSON.stringify(rest)}\n\n`);
  };

  const passOn = () => {
    if (unchecked === "") return;
    answerCheck.onText(unchecked);
    unchecked = "";
  };
  // The reader create's streams use: the stream's bytes capped, so held events and text stay bounded too.
  // Strict UTF-8: a bad byte read as U+FFFD would shift the report's ranges (and the content relayed).
  const events = readEventStream(chunks, MAX_GATEWAY_RESPONSE_BYTES, { strictUtf8: true });
  let next: Promise<IteratorResult<StreamEvent[], EventStreamEnd>> | undefined;
  let end: EventStreamEnd | undefined;
  let broken: unknown;
  try {
    while (end === undefined && !failed) {
      next ??= events.next();
      // A held sentence checked while the gateway is quiet goes out at once, not with the gateway's next chunk.
      const woken = new Promise<"woken">((resolve) => {
        wake = () => resolve("woken");
      });
      let step: IteratorResult<StreamEvent[], EventStreamEnd> | "woken";
      try {
        step = await Promise.race([next, woken]);
      } catch (error) {
        // The gateway broke off (or its deadline passed): the caller is told by an error event, below.
        next = undefined;
        broken = error;
        break;
      }
      wake = undefined;
      if (step !== "woken") {
        next = undefined;
        if (step.done === true) end = step.value;
        else for (const event of step.value) if (!failed) take(event);
      }
      // What a chunk of the gateway's stream brought goes out in one write.
      if (ready.length > 0) yield ready.splice(0).join("");
      passOn();
    }
  } finally {
    // Leaving early (a gateway error event, or the caller gone) closes the gateway's connection.
    if (next === undefined) await events.return({ kind: "ended" });
  }
  if (failed) return;
  const cutOff = streamCutOff(broken, end, finished);
  if (cutOff !== undefined) {
    yield `data: ${JSON.stringify(cutOff.toBody())}\n\n`;
    return;
  }
  let report: VerificationReport;
  try {
    if (contentChars > MAX_ANSWER_CHARS) throw answerTooLong(contentChars);
    const answer = content.join("");
    passOn();
    report = verificationReport(await answerCheck.finish(answer, signal), found, verification, answer);
  } catch (error) {
    const serviceError =
      error instanceof ServiceError
        ? error
        : new ServiceError("internal_error", "The answer could not be checked.");
    yield `data: ${JSON.stringify(serviceError.toBody())}\n\n`;
    return;
  }
  check.onReport?.(report);
  while (ready.length > 0) yield ready.shift() as string;
  if (action === "block" && report.verdict === "fail") {
    yield `data: ${JSON.stringify(blockedAnswer(report).toBody())}\n\n`;
    return;
  }
  for (const line of tail) yield line;
  const last = { ...head, object: "chat.completion.chunk", choices: [], verification: report };
  yield `data: ${JSON.stringify(last)}\n\n`;
  yield "data: [DONE]\n\n";
}

/**
 * Why a gateway's stream cannot be checked, if it cannot: it broke off (a network error, its deadline), it
 * passed the service's byte cap, it is not UTF-8, or it ended with neither `data: [DONE]` nor the answer's `finish_reason`.
 * Sent as an `error` event, which the SDKs throw: a stream that only stopped would pass for a whole answer.
 */
function streamCutOff(
  broken: unknown,
  end: EventStreamEnd | undefined,
  finished: boolean,
): ServiceError | undefined {
  if (broken !== undefined) {
    return broken instanceof ServiceError
      ? broken
      : new ServiceError("gateway_error", "The model gateway broke off its stream.");
  }
  if (end?.kind === "too_large") {
    return new ServiceError(
      "gateway_error",
      `The gateway's stream is larger than ${MAX_GATEWAY_RESPONSE_BYTES / (1024 * 1024)} MiB, the most the service reads; it was refused.`,
    );
  }
  if (end?.kind === "not_utf8") {
    return new ServiceError(
      "gateway_error",
      `The gateway's stream is not valid UTF-8 (a byte that belongs to no UTF-8 character, in its bytes ${end.chunkStart} to ${end.chunkEnd}), so it could not be checked.`,
    );
  }
  if (end?.kind === "ended" && !finished) {
    return new ServiceError(
      "gateway_error",
      "The model gateway ended its stream before the answer was finished (no finish_reason, no data: [DONE]).",
    );
  }
  return undefined;
}

/** A piece of the answer without its unsupported claims: the piece's own check's text. */
function keptText(piece: string, checked: AnswerResult): string {
  if (checked.unsupported.length === 0) return piece;
  // The check's text drops the claims and the space before the next; keep the piece's trailing space.
  const trailing = piece.length - piece.trimEnd().length;
  return checked.text === "" ? "" : checked.text + piece.slice(piece.length - trailing);
}

function parseChunk(data: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The content text of the first choice (`firstChoice`) of a chunk (a delta), or of a whole completion (a message). */
export function firstChoiceText(chunk: Record<string, unknown>): string {
  const choice = firstChoice(chunk.choices);
  if (choice === undefined) return "";
  const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
  return part === undefined ? "" : (contentText(part.content) ?? "");
}

/** Whether a chunk ends the first choice (its `finish_reason`) or follows it (usage, `choices: []`). */
function endsFirstChoice(chunk: Record<string, unknown>): boolean {
  if (Array.isArray(chunk.choices) && chunk.choices.length === 0) return true;
  const choice = firstChoice(chunk.choices);
  return choice !== undefined && typeof choice.finish_reason === "string";
}

/**
 * A chunk without the first choice's content (held), or undefined when nothing else is left in it: no other
 * field of its delta, no other choice, no finish reason, no usage.
 */
function withoutFirstChoiceContent(chunk: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = firstChoice(chunk.choices);
  if (choice === undefined || !isRecord(choice.delta) || choice.delta.content === undefined) return chunk;
  const { content: _, ...delta } = choice.delta;
  const others = (chunk.choices as unknown[]).filter((entry) => entry !== choice);
  const meaningful =
    Object.keys(delta).length > 0 ||
    others.length > 0 ||
    typeof choice.finish_reason === "string" ||
    chunk.usage !== undefined;
  if (!meaningful) return undefined;
  return { ...chunk, choices: [...others, { ...choice, delta }] };
}
