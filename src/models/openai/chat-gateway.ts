import { setTimeout as delay } from "node:timers/promises";
import { ServiceError } from "../../errors/index.js";
import { MAX_GATEWAY_RESPONSE_BYTES, OWN_TURN_TEXT_CHARS } from "../../limits.js";
import { trimTrailing } from "../../util.js";
import type { GatewayAuthHeader, StructuredOutputLevel, TokenParameter } from "../gateways.js";
import { nextTurn, runStepsYielding } from "../turns.js";
import type {
  GenerateRequest,
  GenerateResult,
  GenerateStream,
  ModelBackend,
  RelayRequest,
  RelayResponse,
} from "../types.js";
import { decodeAnswerSteps, parseChatCompletion } from "./completion.js";
import { isEventStream, readCompletionStream } from "./completion-stream.js";
import { type GatewayFailure, mapGatewayError } from "./error-mapping.js";
import { createHttpTransport } from "./http-transport.js";
import { firstInvalidHeader, maskSecrets, maskURLCredentials } from "./masking.js";
import { backoffDelayMs, createCallDeadline } from "./timing.js";
import { fetchTransport, type LimitedBody, type TransportResponse } from "./transport.js";

/** Settings of the OpenAI Chat Completions adapter. */
export interface OpenAIChatGatewayOptions {
  /** The gateway's name in the configuration; reported with each retry. Default "default". */
  name?: string | undefined;
  /** Base URL including any `/v1`; calls go to `{baseURL}/chat/completions`. */
  baseURL: string;
  /** Extra headers sent on every call (Portkey, Cloudflare AI Gateway…). */
  headers?: Record<string, string> | undefined;
  /** Query parameters added to every call's URL (Azure OpenAI's `api-version`). */
  query?: Record<string, string> | undefined;
  /** How the key is sent: `Authorization: Bearer` (default), Azure's `api-key` header, or not at all. */
  authHeader?: GatewayAuthHeader | undefined;
  /** The body field of the output-token cap; default `max_tokens`. */
  tokenParameter?: TokenParameter | undefined;
  /** The first `response_format` tried; refusals fall back from it. Default `json_schema`. */
  structuredOutput?: StructuredOutputLevel | undefined;
  /** Deadline for a whole `generate` call: every attempt, backoff and body read. */
  timeoutMs: number;
  /** Retries after a transient failure (5xx, reset, unusable body); default 2. */
  maxRetries?: number | undefined;
  /** Largest response body accepted, in bytes; default 8 MiB. */
  maxResponseBytes?: number | undefined;
  /** Base of the exponential backoff between retries, in ms; default 200. */
  retryBaseMs?: number | undefined;
  /** Sends calls through this `fetch` instead of node:http (tests wrap it to count calls). */
  fetch?: typeof fetch | undefined;
  /** Waits `ms`, rejecting early when `signal` aborts. Injected by tests to make backoff instant. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Returns a number in [0, 1) for backoff jitter; default `Math.random`. */
  random?: (() => number) | undefined;
  /** Current time in ms, for `Retry-After` dates; default `Date.now`. */
  now?: (() => number) | undefined;
}

/** How the expected output shape is asked for, from most to least strict. */
type ResponseFormatLevel = StructuredOutputLevel;

const nextLevel: Record<ResponseFormatLevel, ResponseFormatLevel | undefined> = {
  json_schema: "json_object",
  json_object: "none",
  none: undefined,
};

/** Models remembered with a downgraded level; bounded so caller-chosen model ids cannot grow it forever. */
const maxRememberedModels = 1000;

/** Outcome of one attempt at one response-format level. */
type AttemptOutcome =
  | { action: "done"; result: GenerateResult }
  | GatewayFailure
  /** The gateway refused `stream: true`: ask again without it. */
  | { action: "stop_streaming" };

/** A streamed call: where its text goes, and whether any has gone (after which nothing is retried). */
interface StreamingCall {
  stream: GenerateStream;
  delivered: boolean;
}

/** How gateways word a refused `stream: true` (with structured output, or at all). */
const streamRefusal = /\bstream(ing)?\b/i;

/**
 * A `ModelBackend` that speaks OpenAI Chat Completions to `{baseURL}/chat/completions` over a pooled node:http
 * transport (or any injected `GatewayTransport`, such as the fetch one). It retries
 * transient failures with backoff, falls back from `json_schema` to `json_object` to no `response_format`
 * when a gateway refuses one (remembered per model), caps the response size, and throws `ServiceError`s
 * whose messages never echo a key. A caller abort rejects with the signal's reason.
 */
export function createOpenAIChatGateway(options: OpenAIChatGatewayOptions): ModelBackend {
  const url = completionsURL(options.baseURL, options.query ?? {});
  const gatewayName = options.name ?? "default";
  const authHeader = options.authHeader ?? "bearer";
  const tokenParameter = options.tokenParameter ?? "max_tokens";
  const firstLevel = options.structuredOutput ?? "json_schema";
  const timeoutMs = options.timeoutMs;
  const maxRetries = options.maxRetries ?? 2;
  const maxResponseBytes = options.maxResponseBytes ?? MAX_GATEWAY_RESPONSE_BYTES;
  const retryBaseMs = options.retryBaseMs ?? 200;
  const transport = options.fetch ? fetchTransport(options.fetch, url) : createHttpTransport(url);
  const sleep = options.sleep ?? ((ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError("timeoutMs must be a positive number");
  if (!Number.isInteger(maxRetries) || maxRetries < 0)
    throw new RangeError("maxRetries must be a whole number ≥ 0");
  // Validated and lower-cased once, at start-up, rather than on every call.
  const extraHeaders: Record<string, string> = {};
  const invalidHeader = firstInvalidHeader(options.headers ?? {});
  if (invalidHeader !== undefined) {
    // Named, never quoted: a header's value is often a key.
    throw new TypeError(`The gateway header ${JSON.stringify(invalidHeader)} is not a valid header.`);
  }
  new Headers(options.headers).forEach((value, name) => {
    extraHeaders[name] = value;
  });

  /** Models whose gateway refused `json_schema` (and maybe `json_object`): the level that worked. */
  const levels = new Map<string, ResponseFormatLevel>();
  /** Models whose gateway refused `stream: true`; their streamed calls are made as ordinary ones. */
  const unstreamable = new Set<string>();

  /** One call's headers, the secrets its messages must never show, and its deadline. */
  function startCall(request: Pick<GenerateRequest, "apiKey" | "headers" | "signal">) {
    request.signal?.throwIfAborted();
    const apiKey = authHeader === "none" ? undefined : request.apiKey;
    const headers = buildHeaders({ ...extraHeaders, ...request.headers }, apiKey, authHeader);
    const knownSecrets = apiKey === undefined ? [] : [apiKey];
    const deadline = createCallDeadline({
      timeoutMs,
      callerSignal: request.signal,
      timeoutReason: () =>
        new ServiceError("gateway_timeout", `The model gateway did not answer within ${timeoutMs} ms.`),
    });
    return { headers, knownSecrets, deadline };
  }

  async function generate(request: GenerateRequest): Promise<GenerateResult> {
    const { headers, knownSecrets, deadline } = startCall(request);
    const signal = deadline.signal;
    let level: ResponseFormatLevel =
      request.responseSchema === undefined ? "none" : (levels.get(request.model) ?? firstLevel);
    let streaming: StreamingCall | undefined =
      request.stream === undefined || unstreamable.has(request.model)
        ? undefined
        : { stream: request.stream, delivered: false };
    try {
      for (;;) {
        const body = JSON.stringify(requestBody(request, level, streaming !== undefined, tokenParameter));
        const outcome = await callWithRetries(
          body,
          headers,
          level !== "none",
          request.model,
          knownSecrets,
          signal,
          streaming,
          () => request.onRetry?.(gatewayName),
        );
        if (outcome.action === "done") {
          if (request.responseSchema !== undefined) remember(request.model, level);
          return outcome.result;
        }
        if (outcome.action === "stop_streaming") {
          // Providers that cannot stream (with structured output) get an ordinary call; the caller still
          // receives the whole reply at the end.
          rememberUnstreamable(request.model);
          streaming = undefined;
          continue;
        }
        const lower = nextLevel[level];
        if (lower === undefined) throw unreachable();
        level = lower;
      }
    } catch (error) {
      // Whatever broke while the deadline or the caller aborted is reported as that abort.
      if (signal.aborted) throw signal.reason;
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  /** One response-format level: the first attempt plus up to `maxRetries` retries of transient failures. */
  async function callWithRetries(
    body: string,
    headers: Record<string, string>,
    responseFormatSent: boolean,
    model: string,
    knownSecrets: readonly string[],
    signal: AbortSignal,
    streaming: StreamingCall | undefined,
    onRetry: () => void,
  ): Promise<Extract<AttemptOutcome, { action: "done" | "downgrade_response_format" | "stop_streaming" }>> {
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce(
        body,
        headers,
        responseFormatSent,
        model,
        knownSecrets,
        signal,
        streaming,
      );
      if (outcome.action === "fail") throw outcome.error;
      if (outcome.action !== "retry") return outcome;
      if (streaming?.delivered) {
        // Text already passed on cannot be taken back, so a stream that breaks after it is not retried.
        throw new ServiceError("gateway_error", `The model gateway's stream failed: it ${outcome.reason}.`);
      }
      if (attempt >= maxRetries) {
        const attempts = attempt + 1;
        throw new ServiceError(
          "gateway_error",
          `The model gateway failed ${attempts === 1 ? "once" : `${attempts} times`}; the last time it ${outcome.reason}.`,
        );
      }
      onRetry();
      await sleep(backoffDelayMs(attempt, retryBaseMs, random), signal);
    }
  }

  async function attemptOnce(
    body: string,
    headers: Record<string, string>,
    responseFormatSent: boolean,
    model: string,
    knownSecrets: readonly string[],
    signal: AbortSignal,
    streaming: StreamingCall | undefined,
  ): Promise<AttemptOutcome> {
    let response: TransportResponse;
    try {
      // Redirects are not followed: the key must go only to the configured gateway.
      response = await transport({ headers, body, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      return {
        action: "retry",
        reason: `could not be reached (${describeNetworkError(error, knownSecrets)})`,
      };
    }

    if (response.declaredLength > maxResponseBytes) {
      await response.discard();
      throw tooLarge(maxResponseBytes);
    }
    const ok = response.status >= 200 && response.status < 300;
    if (streaming !== undefined && ok && isEventStream(response.headers.get("content-type"))) {
      return readStreamed(response, streaming, responseFormatSent, model, knownSecrets, signal);
    }
    let read: LimitedBody;
    try {
      read = await response.readBody(maxResponseBytes);
    } catch (error) {
      if (signal.aborted) throw error;
      return {
        action: "retry",
        reason: `broke off its answer (HTTP ${response.status}, ${describeNetworkError(error, knownSecrets)})`,
      };
    }
    if (!read.ok) throw tooLarge(maxResponseBytes);

    const bodyText = await runStepsYielding(decodeAnswerSteps(read.bytes), signal);
    // Built only for an error: the headers of a successful answer are never looked at.
    const failure = () =>
      mapGatewayError({
        status: response.status,
        headers: response.headers,
        bodyText,
        model,
        responseFormatSent,
        nowMs: now(),
        knownSecrets,
      });
    if (
      streaming !== undefined &&
      (response.status === 400 || response.status === 422) &&
      streamRefusal.test(readableError(bodyText))
    ) {
      return { action: "stop_streaming" };
    }
    if (response.status < 200 || response.status >= 300) return failure();
    // A long answer is parsed from a pass of the event loop of its own, not the one that joined its bytes.
    if (bodyText.length >= OWN_TURN_TEXT_CHARS) await nextTurn();
    const parsed = parseChatCompletion(bodyText);
    if (parsed.ok) {
      // A gateway that answers a streamed call with one JSON body is a gateway that does not stream.
      streaming?.stream.onOpen();
      return { action: "done", result: parsed.value };
    }
    if (parsed.kind === "error_object") return failure();
    return { action: "retry", reason: `${parsed.reason} (HTTP ${response.status})` };
  }

  /** Reads a 2xx event-stream answer, passing its text on as it arrives. */
  async function readStreamed(
    response: TransportResponse,
    streaming: StreamingCall,
    responseFormatSent: boolean,
    model: string,
    knownSecrets: readonly string[],
    signal: AbortSignal,
  ): Promise<AttemptOutcome> {
    streaming.stream.onOpen();
    const onText = (text: string) => {
      streaming.delivered = true;
      streaming.stream.onText(text);
    };
    let read: Awaited<ReturnType<typeof readCompletionStream>>;
    try {
      read = await readCompletionStream(response.chunks(), maxResponseBytes, onText);
    } catch (error) {
      if (signal.aborted) throw error;
      return {
        action: "retry",
        reason: `broke off its stream (HTTP ${response.status}, ${describeNetworkError(error, knownSecrets)})`,
      };
    }
    if (read.ok) return { action: "done", result: read.value };
    if (read.kind === "too_large") throw tooLarge(maxResponseBytes);
    if (read.kind === "malformed")
      return { action: "retry", reason: `${read.reason} (HTTP ${response.status})` };
    return mapGatewayError({
      status: response.status,
      headers: response.headers,
      bodyText: read.bodyText,
      model,
      responseFormatSent,
      nowMs: now(),
      knownSecrets,
    });
  }

  function rememberUnstreamable(model: string): void {
    if (!unstreamable.has(model) && unstreamable.size >= maxRememberedModels) {
      const oldest = unstreamable.values().next();
      if (oldest.done !== true) unstreamable.delete(oldest.value);
    }
    unstreamable.add(model);
  }

  function remember(model: string, level: ResponseFormatLevel): void {
    if (level === firstLevel) {
      levels.delete(model);
      return;
    }
    if (!levels.has(model) && levels.size >= maxRememberedModels) {
      const oldest = levels.keys().next();
      if (oldest.done !== true) levels.delete(oldest.value);
    }
    levels.set(model, level);
  }

  /**
   * Sends the caller's body as it is and hands back the answer unread: no retries (what the caller asked for
   * may not be safe to repeat), no response format, and the deadline over the whole answer, body included.
   */
  async function relay(request: RelayRequest): Promise<RelayResponse> {
    const { headers, knownSecrets, deadline } = startCall(request);
    let response: TransportResponse;
    try {
      response = await transport({ headers, body: JSON.stringify(request.body), signal: deadline.signal });
    } catch (error) {
      deadline.dispose();
      if (deadline.signal.aborted) throw deadline.signal.reason;
      throw new ServiceError(
        "gateway_error",
        `The model gateway could not be reached (${describeNetworkError(error, knownSecrets)}).`,
      );
    }
    if (response.status >= 200 && response.status < 300) {
      return {
        status: response.status,
        headers: relayedHeaders(response.headers),
        body: relayedBody(response, deadline, knownSecrets),
      };
    }
    // A refusal is read whole and mapped as create maps it; its bytes still go on as the gateway sent them.
    let read: LimitedBody;
    try {
      read = await response.readBody(maxResponseBytes);
    } catch (error) {
      throw brokenOff(error, deadline, knownSecrets);
    } finally {
      deadline.dispose();
    }
    if (!read.ok) throw tooLarge(maxResponseBytes);
    const mapped = mapGatewayError({
      status: response.status,
      headers: response.headers,
      bodyText: read.bytes.toString("utf8"),
      model: request.model,
      responseFormatSent: false,
      nowMs: now(),
      knownSecrets,
    });
    return {
      status: response.status,
      headers: relayedHeaders(response.headers),
      body: (async function* () {
        yield read.bytes;
      })(),
      // A relay is not retried: a 5xx is the gateway's error as it stands.
      failure:
        mapped.action === "fail"
          ? mapped.error
          : new ServiceError("gateway_error", `The model gateway ${mapped.reason}.`),
    };
  }

  return { generate, relay };
}

/** The headers of a gateway's answer a relay passes on: its content type, when to retry, its rate limits. */
function relayedHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (name === "content-type" || name === "retry-after" || name === "retry-after-ms") kept[name] = value;
    else if (name.startsWith("x-ratelimit-")) kept[name] = value;
  });
  return kept;
}

/** A relayed body's bytes as they arrive; the deadline ends with the body, and a break is a gateway error. */
async function* relayedBody(
  response: TransportResponse,
  deadline: ReturnType<typeof createCallDeadline>,
  knownSecrets: readonly string[],
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of response.chunks()) yield chunk;
  } catch (error) {
    throw brokenOff(error, deadline, knownSecrets);
  } finally {
    deadline.dispose();
  }
}

/** What a relay throws when the gateway's answer breaks off: the deadline's reason, or a `gateway_error`. */
function brokenOff(
  error: unknown,
  deadline: ReturnType<typeof createCallDeadline>,
  knownSecrets: readonly string[],
): unknown {
  if (deadline.signal.aborted) return deadline.signal.reason;
  return new ServiceError(
    "gateway_error",
    `The model gateway broke off its answer (${describeNetworkError(error, knownSecrets)}).`,
  );
}

/** `{baseURL}/chat/completions?{query}`, with any trailing slash of the base removed. */
function completionsURL(baseURL: string, query: Record<string, string>): string {
  const base = trimTrailing(baseURL, "/");
  let parsed: URL;
  try {
    parsed = new URL(base);
  } catch {
    throw new TypeError(`The gateway URL ${JSON.stringify(maskURLCredentials(baseURL))} is not a valid URL.`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`The gateway URL must start with http:// or https://, not ${parsed.protocol}//.`);
  }
  const search = new URLSearchParams(query).toString();
  return `${base}/chat/completions${search === "" ? "" : `?${search}`}`;
}

/**
 * Configured headers first; then content type and the bearer key, which override a configured header of the
 * same name. Only the key comes from the request, and a key that cannot be a header value is refused here,
 * before any call, rather than surfacing as a network error.
 */
function buildHeaders(
  extraHeaders: Record<string, string>,
  apiKey: string | undefined,
  authHeader: GatewayAuthHeader,
): Record<string, string> {
  const headers = { ...extraHeaders, "content-type": "application/json", accept: "application/json" };
  if (apiKey !== undefined) {
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      throw new ServiceError("invalid_key", "The API key holds characters that cannot be sent in a header.");
    }
    return authHeader === "api-key"
      ? { ...headers, "api-key": apiKey }
      : { ...headers, authorization: `Bearer ${apiKey}` };
  }
  return headers;
}

/**
 * The Chat Completions body: only the fields the caller gave, the response format of `level`, and for a
 * streamed call `stream` with the usage chunk at its end.
 */
function requestBody(
  request: GenerateRequest,
  level: ResponseFormatLevel,
  stream: boolean,
  tokenParameter: TokenParameter,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
  };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[tokenParameter] = request.maxTokens;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  const schema = request.responseSchema;
  if (schema !== undefined && level === "json_schema") {
    body.response_format = {
      type: "json_schema",
      json_schema: { name: schema.name, schema: schema.schema, strict: true },
    };
  } else if (schema !== undefined && level === "json_object") {
    body.response_format = { type: "json_object" };
  }
  return body;
}

/** `ECONNREFUSED`, `ECONNRESET`, `other side closed`…: the most specific thing fetch says about a failure. */
function describeNetworkError(error: unknown, knownSecrets: readonly string[]): string {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const message =
    typeof cause?.message === "string"
      ? cause.message
      : error instanceof Error
        ? error.message
        : String(error);
  const text = code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
  return maskSecrets(text, knownSecrets);
}

/** The message, code and type of an error body, or the body itself when it is not JSON; for matching only. */
function readableError(bodyText: string): string {
  try {
    const body: unknown = JSON.parse(bodyText);
    const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
    if (typeof error === "string") return error;
    if (typeof error === "object" && error !== null) {
      const { message, code, type, param } = error as Record<string, unknown>;
      return [message, code, type, param].filter((part) => typeof part === "string").join(" ");
    }
    return bodyText.slice(0, 1000);
  } catch {
    return bodyText.slice(0, 1000);
  }
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError(
    "gateway_error",
    `The gateway's response is larger than ${formatBytes(maxBytes)}, the most the service reads; it was refused.`,
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function unreachable(): Error {
  // mapGatewayError only asks for a downgrade when a response_format was sent, so "none" never downgrades.
  return new ServiceError("gateway_error", "The gateway refused a call that carried no response_format.");
}
