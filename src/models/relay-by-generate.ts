import { randomBytes } from "node:crypto";
import { ServiceError } from "../errors/index.js";
import type { ChatMessage, GenerateResult, ModelBackend, RelayRequest, RelayResponse } from "./types.js";

const encoder = new TextEncoder();

/**
 * Answers a Chat Completions call through `generate`, for a backend that cannot pass a body on (the built-in
 * local model): its reply is written as a `chat.completion`, or, when the body asks for `stream`, as
 * `chat.completion.chunk` events ending in `data: [DONE]`, each piece of the reply as it comes. Only the
 * messages' text reaches the model; the rest of the body has no meaning for it.
 */
export async function relayByGenerate(backend: ModelBackend, request: RelayRequest): Promise<RelayResponse> {
  const id = `chatcmpl-${randomBytes(12).toString("base64url")}`;
  const created = Math.floor(Date.now() / 1000);
  const model = request.model;
  const call = {
    model,
    messages: textMessages(request.body.messages),
    task: request.task,
    apiKey: request.apiKey,
    headers: request.headers,
    signal: request.signal,
  };
  if (request.body.stream !== true) {
    const result = await backend.generate(call);
    const completion = {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: result.content, refusal: null },
          logprobs: null,
          finish_reason: "stop",
        },
      ],
      usage: usageOf(result),
    };
    return { status: 200, headers: { "content-type": "application/json" }, body: once(completion) };
  }

  const includeUsage =
    typeof request.body.stream_options === "object" &&
    request.body.stream_options !== null &&
    (request.body.stream_options as { include_usage?: unknown }).include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices, ...extra })}\n\n`;
  const pieces: string[] = [];
  let wake: (() => void) | undefined;
  let opened: () => void = () => undefined;
  const open = new Promise<void>((resolve) => {
    opened = resolve;
  });
  let settled: { result: GenerateResult } | { error: unknown } | undefined;
  const push = (text: string) => {
    pieces.push(text);
    wake?.();
  };
  void backend
    .generate({
      ...call,
      stream: { onOpen: () => opened(), onText: (text) => push(chunk([delta({ content: text })])) },
    })
    .then(
      (result) => {
        settled = { result };
      },
      (error: unknown) => {
        settled = { error };
      },
    )
    .finally(() => {
      opened();
      wake?.();
    });
  await open;
  // A call that failed before its first piece fails as an ordinary error answer.
  if (settled !== undefined && "error" in settled && pieces.length === 0) throw settled.error;

  async function* events(): AsyncGenerator<Uint8Array> {
    yield encoder.encode(chunk([delta({ role: "assistant", content: "" })]));
    for (;;) {
      while (pieces.length > 0) yield encoder.encode(pieces.shift() as string);
      if (settled !== undefined) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
    if ("error" in settled) {
      const error =
        settled.error instanceof ServiceError
          ? settled.error
          : new ServiceError("gateway_error", "The model failed.");
      yield encoder.encode(`data: ${JSON.stringify(error.toBody())}\n\n`);
      return;
    }
    yield encoder.encode(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]));
    if (includeUsage) yield encoder.encode(chunk([], { usage: usageOf(settled.result) }));
    yield encoder.encode("data: [DONE]\n\n");
  }
  return {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8" },
    body: events(),
  };
}

function delta(fields: Record<string, unknown>) {
  return { index: 0, delta: fields, logprobs: null, finish_reason: null };
}

function usageOf(result: GenerateResult) {
  return {
    prompt_tokens: result.usage.promptTokens,
    completion_tokens: result.usage.completionTokens,
    total_tokens: result.usage.totalTokens,
  };
}

async function* once(value: unknown): AsyncGenerator<Uint8Array> {
  yield encoder.encode(JSON.stringify(value));
}

/** The body's messages with text content, as the model interface carries them (tool messages read as user). */
export function textMessages(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages)) return [];
  const result: ChatMessage[] = [];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    const text = contentText(content);
    if (text === undefined) continue;
    result.push({ role: role === "system" || role === "assistant" ? role : "user", content: text });
  }
  return result;
}

/** A message's text: a string, or the text parts of an array of content parts. */
export function contentText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push(part);
    else if (
      typeof part === "object" &&
      part !== null &&
      typeof (part as { text?: unknown }).text === "string"
    )
      parts.push((part as { text: string }).text);
  }
  return parts.join("");
}
