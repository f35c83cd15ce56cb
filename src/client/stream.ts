import { fromWire } from "./case-mapping.js";
import { ConnectionError, errorFromResponse, TimeoutError, VerifiedError } from "./errors.js";
import {
  connectionFailure,
  type RetryPolicy,
  type Transport,
  userAbortError,
  withRetries,
} from "./post-json.js";
import type { Citation, CreateResult, EvalCaseResult, EvalResult, UnsupportedClaim } from "./types.js";

/** An event of a streamed create (`verified.stream`), in camelCase. */
export type CreateStreamEvent =
  /** A claim that passed the check, as soon as the model closed it. */
  | { type: "claim"; citation: Citation }
  /** A claim that failed the check. */
  | { type: "unsupported"; unsupported: UnsupportedClaim }
  /** Model call `attempt` (2, 3, …) starts: the events before it came from an earlier call. */
  | { type: "attempt"; attempt: number }
  /** The result, the same as `create` returns; always the last event. */
  | { type: "done"; result: CreateResult };

/** An event of a streamed eval (`verified.evalStream`), in camelCase. */
export type EvalStreamEvent =
  /** Case `index` finished. */
  | { type: "case"; index: number; result: EvalCaseResult }
  /** The result, the same as `eval` returns; always the last event. */
  | { type: "done"; result: EvalResult };

/** A streamed answer: iterate it for events (once), or await `finalResult()`, or both. */
export interface VerifiedStream<Event, Result> extends AsyncIterable<Event> {
  /** The `done` result; rejects with the typed error of an `error` event or of the request. */
  finalResult(): Promise<Result>;
  /** Stops reading and closes the connection, which aborts the service's model call. */
  abort(): void;
}

/**
 * POSTs `body` with `"stream": true` and reads the event stream. Retries (429, 5xx, network) happen only
 * before the stream opens; a failure after it, sent as an `error` event, is thrown as its typed error. A
 * server that answered plain JSON is read as a stream of its `done` alone.
 */
export function openStream<Event, Result>(
  transport: Transport,
  policy: RetryPolicy,
  path: string,
  body: Record<string, unknown>,
  toEvent: (name: string, data: unknown) => Event | undefined,
  signal?: AbortSignal,
  settle: StreamSettlement<Event, Result> = doneEvent as StreamSettlement<Event, Result>,
): VerifiedStream<Event, Result> {
  const controller = new AbortController();
  const forwardAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", forwardAbort, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The timeout covers the whole stream, from when it is first read.
  const startTimer = () => {
    if (Number.isFinite(transport.timeoutMs) && transport.timeoutMs > 0) {
      timer = setTimeout(
        () => {
          timedOut = true;
          controller.abort();
        },
        Math.min(transport.timeoutMs, 2 ** 31 - 1),
      );
    }
  };
  const cleanUp = () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forwardAbort);
  };

  const failure = (error: unknown, connecting = false): unknown => {
    if (error instanceof VerifiedError) return error;
    if (signal?.aborted) return userAbortError(signal);
    if (timedOut) {
      return new TimeoutError({
        type: "timeout",
        status: 0,
        message: `POST ${path} did not complete within ${transport.timeoutMs} ms; raise \`timeout\` for long streams.`,
        cause: error,
      });
    }
    return new ConnectionError({
      type: "connection_error",
      status: 0,
      message: connecting
        ? connectionFailure("Could not reach the service at", transport.baseURL, error)
        : connectionFailure("The stream broke off from", transport.baseURL, error),
      cause: error,
    });
  };

  const connect = async (): Promise<Response> => {
    if (signal?.aborted) throw userAbortError(signal);
    let response: Response;
    try {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        accept: "text/event-stream, application/json",
      };
      if (transport.apiKey !== undefined) headers.authorization = `Bearer ${transport.apiKey}`;
      response = await transport.fetch(`${transport.baseURL}${path}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ ...body, stream: true }),
        signal: controller.signal,
      });
    } catch (error) {
      throw failure(error, true);
    }
    if (!response.ok) {
      const bodyText = await response.text().catch(() => "");
      throw errorFromResponse({ status: response.status, headers: response.headers, bodyText });
    }
    return response;
  };

  async function* events(): AsyncGenerator<Event> {
    startTimer();
    try {
      const response = await withRetries(connect, policy, signal);
      const contentType = response.headers.get("content-type") ?? "";
      if (!contentType.startsWith("text/event-stream") || response.body === null) {
        const done = toEvent("done", JSON.parse(await response.text()));
        if (done !== undefined) yield done;
        return;
      }
      for await (const message of readEventStream(response.body)) {
        // OpenAI's end of a chat completion stream; nothing after it is read.
        if (message.data === "[DONE]") break;
        const data: unknown = JSON.parse(message.data);
        // The service's streams name their error event; an OpenAI-style stream sends an unnamed error object.
        if (message.event === "error" || (message.event === "message" && isErrorObject(data))) {
          throw errorFromResponse({
            status: response.status,
            headers: response.headers,
            bodyText: message.data,
          });
        }
        const event = toEvent(message.event, data);
        if (event !== undefined) yield event;
      }
    } catch (error) {
      throw failure(error);
    } finally {
      cleanUp();
      controller.abort();
    }
  }

  let resolveFinal: (result: Result) => void = () => {};
  let rejectFinal: (error: unknown) => void = () => {};
  const final = new Promise<Result>((resolve, reject) => {
    resolveFinal = resolve;
    rejectFinal = reject;
  });
  // Nobody has to ask for the final result; its rejection is not an unhandled one.
  final.catch(() => undefined);

  async function* tracked(): AsyncGenerator<Event> {
    try {
      for await (const event of events()) {
        const settled = settle.resultOf(event);
        if (settled !== undefined) resolveFinal(settled.result);
        yield event;
      }
      if (settle.atEnd !== undefined) resolveFinal(settle.atEnd());
    } catch (error) {
      rejectFinal(error);
      throw error;
    } finally {
      // Settles nothing once resolved; otherwise the stream ended (or was left) before `done`.
      rejectFinal(
        new VerifiedError({
          type: "invalid_response",
          status: 200,
          message: `The stream from POST ${path} ended without a done event.`,
        }),
      );
    }
  }

  let started = false;
  const begin = () => {
    if (started) throw new TypeError("A stream can be read only once.");
    started = true;
    return tracked();
  };
  return {
    [Symbol.asyncIterator]: begin,
    finalResult() {
      if (!started) {
        const reading = begin();
        void (async () => {
          try {
            for await (const _event of reading) {
              // Only `done` matters here, and `tracked` resolves with it.
            }
          } catch {
            // `final` rejects with the same error.
          }
        })();
      }
      return final;
    },
    abort: () => controller.abort(),
  };
}

/** Which event settles a stream's `finalResult()`, and what it is when the stream ends without one. */
export interface StreamSettlement<Event, Result> {
  resultOf(event: Event): { result: Result } | undefined;
  /** The result of a stream that ended normally without a settling event; absent: that is an error. */
  atEnd?: () => Result;
}

/** The service's own streams end with a `done` event carrying the result. */
const doneEvent: StreamSettlement<{ type?: unknown; result?: unknown }, unknown> = {
  resultOf: (event) => (event.type === "done" ? { result: event.result } : undefined),
};

/** A top-level `{"error": {…}}` without `choices`: how an OpenAI-style stream reports a failure. */
function isErrorObject(data: unknown): boolean {
  return (
    typeof data === "object" &&
    data !== null &&
    typeof (data as { error?: unknown }).error === "object" &&
    !("choices" in data)
  );
}

/** Wire event → typed create event. */
export function toCreateEvent(name: string, data: unknown): CreateStreamEvent | undefined {
  switch (name) {
    case "claim":
      return { type: "claim", citation: data as Citation };
    case "unsupported":
      return { type: "unsupported", unsupported: data as UnsupportedClaim };
    case "attempt":
      return { type: "attempt", attempt: (data as { attempt: number }).attempt };
    case "done":
      return { type: "done", result: fromWire(data) as CreateResult };
    default:
      return undefined;
  }
}

/** Wire event → typed eval event. */
export function toEvalEvent(name: string, data: unknown): EvalStreamEvent | undefined {
  switch (name) {
    case "case": {
      const { index, ...result } = fromWire(data) as { index: number } & EvalCaseResult;
      return { type: "case", index, result: result as EvalCaseResult };
    }
    case "done":
      return { type: "done", result: fromWire(data) as EvalResult };
    default:
      return undefined;
  }
}

/** One server-sent event: its name (`message` when unnamed) and its data lines joined with `\n`. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body as the HTML standard says: lines end in CRLF, LF or CR; `:` lines are
 * comments (heartbeats); `data` lines of one event are joined with `\n`; a blank line dispatches; an event
 * the stream ended in the middle of is dropped. Dependency-free, for the client. O(bytes) time.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
        if (buffer[end] === "\r" && end === buffer.length - 1) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(buffer[end] === "\r" && buffer[end + 1] === "\n" ? end + 2 : end + 1);
        if (line === "") {
          if (data.length > 0) yield { event: event === "" ? "message" : event, data: data.join("\n") };
          event = "";
          data = [];
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
      }
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}
