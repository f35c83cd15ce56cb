import { fromWire } from "./case-mapping.js";
import type { VerifiedStream } from "./stream.js";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionParams,
  RequestOptions,
  VerificationReport,
} from "./types.js";

/** A streamed chat completion: its chunks (once), and the report of the chunk before `[DONE]`. */
export type ChatCompletionStream = VerifiedStream<ChatCompletionChunk, VerificationReport | undefined>;

/** The OpenAI-shaped face of `POST /v1/chat/completions` (`verified.chat.completions`). */
export interface ChatCompletions {
  /**
   * The OpenAI Chat Completions call, through the service to the model's gateway; with `verification`, the
   * answer comes back with `verification`, its check against the sources. With `stream: true`, the chunks as
   * they come; `finalResult()` is the report (undefined when none was asked).
   */
  create(params: ChatCompletionParams & { stream: true }, options?: RequestOptions): ChatCompletionStream;
  create(
    params: ChatCompletionParams & { stream?: false },
    options?: RequestOptions,
  ): Promise<ChatCompletion>;
}

/** Wire event of a chat stream → its chunk in camelCase. */
export function toChatEvent(_name: string, data: unknown): ChatCompletionChunk | undefined {
  return fromWire(data) as ChatCompletionChunk;
}
