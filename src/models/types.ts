import type { Source } from "../core/index.js";
import type { ServiceError } from "../errors/index.js";

/** A chat message as the OpenAI Chat Completions protocol carries it. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * What the call is for. Remote gateways see only `messages`; the built-in local model, which cannot
 * read a prompt, uses this structured copy of the same task.
 */
export type GenerateTask =
  | { kind: "claims"; sources: Source[]; messages: ChatMessage[] }
  /** A plain answer in prose with `[id]` citation markers (create's `answer_format: "text"`). */
  | { kind: "prose"; sources: Source[]; messages: ChatMessage[] }
  | { kind: "fields"; sources: Source[]; schema: Record<string, string> }
  | { kind: "answer"; messages: ChatMessage[] };

/** One model call. */
export interface GenerateRequest {
  model: string;
  messages: ChatMessage[];
  task: GenerateTask;
  /** JSON schema of the expected output; absent for a plain-text answer. */
  responseSchema?: { name: string; schema: Record<string, unknown> } | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** Bearer key to send to the gateway. */
  apiKey?: string | undefined;
  /** Per-call headers for a remote gateway (the caller's validated W3C `traceparent`/`tracestate`). */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
  /** Told before each retry of a transient gateway failure, with the gateway's name (for metrics). */
  onRetry?: ((gateway: string) => void) | undefined;
  /** Asks for the reply as it is written (see `GenerateStream`); absent for an ordinary call. */
  stream?: GenerateStream | undefined;
}

/**
 * Receives a reply while the model writes it. A gateway that cannot stream may ignore it and return the whole
 * reply; whatever it does, the pieces given to `onText` are a prefix of the returned `content`, in order.
 */
export interface GenerateStream {
  /** The gateway accepted the call (its 2xx headers arrived); text may follow. */
  onOpen(): void;
  /** The next piece of the reply's content. */
  onText(text: string): void;
}

/** Token counts of one call. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** What a model call returns: the raw text content and its token usage. */
export interface GenerateResult {
  content: string;
  usage: TokenUsage;
  /** Usage fields the gateway sent that were not non-negative safe integers, left out (for the log line). */
  invalidUsage?: string[] | undefined;
}

/**
 * One Chat Completions call passed through as the caller wrote it (`POST /v1/chat/completions`): the body is
 * sent as given, its `model` replaced by the gateway's own id for it, and the answer comes back unread.
 */
export interface RelayRequest {
  model: string;
  /** The caller's body: every field kept, unknown ones included. */
  body: Record<string, unknown>;
  /** The same call as a task, for a model that cannot read a prompt (the built-in local model). */
  task: GenerateTask;
  /** Bearer key to send to the gateway. */
  apiKey?: string | undefined;
  /** Per-call headers (the caller's validated W3C `traceparent`/`tracestate`). */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
}

/** The gateway's answer to a relayed call, as it sent it: status, the headers worth passing on, the body. */
export interface RelayResponse {
  status: number;
  /** Content type, `Retry-After` and rate-limit headers of the gateway's answer. */
  headers: Record<string, string>;
  /** The body's bytes as they arrive (read once); leaving the loop early closes the connection. */
  body: AsyncIterable<Uint8Array>;
  /**
   * For a non-2xx answer (its body then read whole): the service's error for it, as create would give it
   * (`mapGatewayError`, and the router's hint when the call carried no key).
   */
  failure?: ServiceError | undefined;
}

/**
 * Anything that answers a model call: the OpenAI-compatible gateway adapter (a remote gateway), the built-in
 * local model, or the router over both. "Gateway" names only the remote kind.
 */
export interface ModelBackend {
  generate(request: GenerateRequest): Promise<GenerateResult>;
  /** Passes one Chat Completions call through unchanged; absent: answered through `generate` (`relayByGenerate`). */
  relay?(request: RelayRequest): Promise<RelayResponse>;
  /**
   * Whether a call to `model` needs the caller's key. An open service (no key list) takes a request without
   * a key only when this says no. Absent: every model but the built-in local one needs a key.
   */
  needsCallerKey?(model: string): boolean;
  /** The name of what answers `model` (a configured gateway's name, or `local`), for metrics; absent: unknown. */
  answererOf?(model: string): string | undefined;
}
