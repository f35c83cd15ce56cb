import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** One request the scripted gateway received. */
export interface RecordedCall {
  /** 0-based order of arrival. */
  index: number;
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body parsed as JSON, or the raw text when it is not JSON (`undefined` when empty). */
  body: unknown;
  /** True once the client closed the connection before the reply was complete (an abort). */
  closedByClient: boolean;
}

/** What the scripted gateway does with one request. */
export type ScriptedReply =
  /** A JSON body with a status (default 200). */
  | { kind: "json"; status: number; body: unknown; headers?: Record<string, string> }
  /** A text body (HTML error pages, broken JSON) with a status and content type. */
  | {
      kind: "text";
      status: number;
      /** Bytes, for a body that is not UTF-8. */
      text: string | Uint8Array;
      contentType: string;
      headers?: Record<string, string>;
    }
  /** Another reply after `ms` milliseconds. */
  | { kind: "delay"; ms: number; reply: ScriptedReply }
  /**
   * A TCP reset. Without `partialBody`, before any byte of the answer; with it, after the status line,
   * headers announcing the full length, and `partialBody`.
   */
  | { kind: "reset"; status: number; partialBody?: string }
  /** `body`, `chunkBytes` at a time, one chunk every `intervalMs`. */
  | { kind: "trickle"; status: number; body: string; intervalMs: number; chunkBytes: number }
  /** Never answers (the socket stays open until the client or `close()` ends it). */
  | { kind: "hang" }
  /**
   * A completion-shaped body of `bytes` bytes, streamed in 64 KiB pieces without buffering it;
   * chunked unless `contentLength` is set.
   */
  | { kind: "huge"; status: number; bytes: number; contentLength: boolean }
  /**
   * A `text/event-stream` answer written piece by piece: before each piece `gate(index)` (when given) is
   * awaited, then the stream closes, resets, or hangs.
   */
  | {
      kind: "events";
      status: number;
      pieces: string[];
      end: "close" | "reset" | "hang";
      gate?: ((index: number) => Promise<void>) | undefined;
      contentType: string;
    };

/** What a handler may return: a reply, or a string/object taken as the completion's content. */
export type ScriptedAnswer = ScriptedReply | string;

/** Decides the reply to one call. Gets the call as recorded (body parsed). */
export type ScriptedHandler = (call: RecordedCall) => ScriptedAnswer | Promise<ScriptedAnswer>;

/** Sets the handler; `replyWith` queues replies that are used, in order, before the handler. */
export interface Script {
  (handler: ScriptedHandler): void;
  replyWith(replies: ScriptedAnswer[]): void;
}

/** A running scripted OpenAI-compatible gateway. */
export interface ScriptedGateway {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`: what the service takes as its gateway URL. */
  url: string;
  /** Every request received, in order of arrival. */
  calls: RecordedCall[];
  script: Script;
  /** Sockets currently open to the gateway. */
  openSockets(): number;
  /** Requests whose reply is not finished yet. */
  inFlight(): number;
  /** The most requests ever in flight at once. */
  maxInFlight(): number;
  /** Resolves once `count` calls have arrived; rejects after `timeoutMs`. */
  waitForCalls(count: number, timeoutMs?: number): Promise<RecordedCall[]>;
  /** Resolves once the client has closed call `index`'s connection before its reply was complete. */
  waitForClientClose(index: number, timeoutMs?: number): Promise<RecordedCall>;
  /** Stops listening and destroys every socket, including hung ones, and clears every timer. */
  close(): Promise<void>;
}

export interface ScriptedGatewayOptions {
  /** The first handler (default: every call answers the completion `{"claims": []}`). */
  handler?: ScriptedHandler;
  /** Keep connections alive between calls, as real gateways do (default true). */
  keepAlive?: boolean;
  /** Answers completions on this path and query instead (Azure's deployment URLs). */
  completionsPath?: string;
}

/** The default content: a well-formed create answer with no claims. */
export const defaultContent = '{"claims": []}';

/** A JSON body with a status (default 200). */
export function jsonReply(
  body: unknown,
  options: { status?: number; headers?: Record<string, string> } = {},
) {
  const reply: ScriptedReply = { kind: "json", status: options.status ?? 200, body };
  if (options.headers !== undefined) reply.headers = options.headers;
  return reply;
}

/**
 * A Chat Completions body whose message content is `content` (an object is JSON-encoded). Usage defaults to
 * 10 prompt + 5 completion tokens; `usage: null` leaves usage out.
 */
export function completionBody(
  content: unknown,
  options: {
    finishReason?: string;
    usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
    model?: string;
  } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: "chatcmpl-scripted",
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "scripted",
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason ?? "stop",
        message: {
          role: "assistant",
          content: typeof content === "string" ? content : JSON.stringify(content),
        },
      },
    ],
  };
  const usage =
    options.usage === undefined
      ? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
      : options.usage;
  if (usage !== null) body.usage = usage;
  return body;
}

/** A 200 Chat Completions answer with `content`; see `completionBody` for the options. */
export function completion(
  content: unknown,
  options: Parameters<typeof completionBody>[1] = {},
): ScriptedReply {
  return jsonReply(completionBody(content, options));
}

/** An OpenAI-style error: `{"error": {"message", "type", "code", "param"}}` with the given status. */
export function errorReply(
  status: number,
  message: string,
  options: { code?: string | number; type?: string; param?: string; headers?: Record<string, string> } = {},
): ScriptedReply {
  const body = {
    error: {
      message,
      type: options.type ?? "invalid_request_error",
      code: options.code ?? null,
      param: options.param ?? null,
    },
  };
  return jsonReply(body, options.headers === undefined ? { status } : { status, headers: options.headers });
}

/** A raw text body, e.g. broken JSON (`textReply('{"choices": [')`). */
export function textReply(
  text: string,
  options: { status?: number; contentType?: string; headers?: Record<string, string> } = {},
): ScriptedReply {
  const reply: ScriptedReply = {
    kind: "text",
    status: options.status ?? 200,
    text,
    contentType: options.contentType ?? "text/plain; charset=utf-8",
  };
  if (options.headers !== undefined) reply.headers = options.headers;
  return reply;
}

/** An HTML error page, as a proxy in front of a gateway sends. */
export function htmlReply(status: number, title = `${status} Bad Gateway`): ScriptedReply {
  return textReply(
    `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`,
    {
      status,
      contentType: "text/html; charset=utf-8",
    },
  );
}

/** `reply` (default: the default completion) after `ms` milliseconds. */
export function delayed(ms: number, reply: ScriptedAnswer = defaultContent): ScriptedReply {
  return { kind: "delay", ms, reply: toReply(reply) };
}

/** A connection reset: before the answer, or mid-body after `partialBody`. */
export function resetReply(options: { partialBody?: string; status?: number } = {}): ScriptedReply {
  const reply: ScriptedReply = { kind: "reset", status: options.status ?? 200 };
  if (options.partialBody !== undefined) reply.partialBody = options.partialBody;
  return reply;
}

/** A body sent `chunkBytes` (default 1) at a time every `intervalMs` (default 50): a slow-loris gateway. */
export function trickleReply(
  body: string = JSON.stringify(completionBody(defaultContent)),
  options: { intervalMs?: number; chunkBytes?: number; status?: number } = {},
): ScriptedReply {
  return {
    kind: "trickle",
    status: options.status ?? 200,
    body,
    intervalMs: options.intervalMs ?? 50,
    chunkBytes: options.chunkBytes ?? 1,
  };
}

/** Never answers. */
export function hangReply(): ScriptedReply {
  return { kind: "hang" };
}

/** A completion-shaped body of `bytes` bytes (default 20 MB), streamed without buffering it. */
export function hugeReply(
  bytes = 20_000_000,
  options: { contentLength?: boolean; status?: number } = {},
): ScriptedReply {
  return {
    kind: "huge",
    status: options.status ?? 200,
    bytes,
    contentLength: options.contentLength ?? false,
  };
}

/** The SSE pieces of a streamed completion of `content`, as OpenAI sends them. */
export function sseChunks(
  content: string,
  options: {
    /** Characters of content per chunk (default 4, about a token). */
    pieceChars?: number;
    usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
    finishReason?: string;
    /** End with `data: [DONE]` (default true). */
    done?: boolean;
  } = {},
): string[] {
  const pieceChars = options.pieceChars ?? 4;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-scripted", object: "chat.completion.chunk", model: "scripted", choices, ...extra })}\n\n`;
  const pieces = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }])];
  // Cut by code points, as a tokenizer would, never inside a surrogate pair.
  const characters = [...content];
  for (let index = 0; index < characters.length; index += pieceChars) {
    const text = characters.slice(index, index + pieceChars).join("");
    pieces.push(chunk([{ index: 0, delta: { content: text }, finish_reason: null }]));
  }
  pieces.push(chunk([{ index: 0, delta: {}, finish_reason: options.finishReason ?? "stop" }]));
  const usage =
    options.usage === undefined
      ? { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
      : options.usage;
  if (usage !== null) pieces.push(chunk([], { usage }));
  if (options.done ?? true) pieces.push("data: [DONE]\n\n");
  return pieces;
}

/** An event-stream answer of raw `pieces`; see the `events` reply. */
export function streamReply(
  pieces: string[],
  options: {
    end?: "close" | "reset" | "hang";
    gate?: (index: number) => Promise<void>;
    status?: number;
    contentType?: string;
  } = {},
): ScriptedReply {
  return {
    kind: "events",
    status: options.status ?? 200,
    pieces,
    end: options.end ?? "close",
    gate: options.gate,
    contentType: options.contentType ?? "text/event-stream; charset=utf-8",
  };
}

/** A streamed completion of `content` (see `sseChunks` for the options). */
export function streamedCompletion(
  content: string,
  options: Parameters<typeof sseChunks>[1] & { gate?: (index: number) => Promise<void> } = {},
): ScriptedReply {
  const { gate, ...chunkOptions } = options;
  return streamReply(sseChunks(content, chunkOptions), gate === undefined ? {} : { gate });
}

/** A string answer is the completion's content: streamed when the call asked for a stream. */
function toReply(answer: ScriptedAnswer, call?: RecordedCall): ScriptedReply {
  if (typeof answer !== "string") return answer;
  const streamed = (call?.body as { stream?: unknown } | undefined)?.stream === true;
  return streamed ? streamedCompletion(answer) : completion(answer);
}

const completionsPath = "/v1/chat/completions";

/**
 * Starts an OpenAI-compatible gateway on 127.0.0.1 (port 0) that answers `POST /v1/chat/completions` as
 * scripted and records every request. Other paths get a 404 error body.
 */
export async function startScriptedGateway(options: ScriptedGatewayOptions = {}): Promise<ScriptedGateway> {
  const keepAlive = options.keepAlive ?? true;
  const calls: RecordedCall[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  let handler: ScriptedHandler = options.handler ?? (() => defaultContent);
  let queue: ScriptedAnswer[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let closing = false;

  const notify = () => {
    for (const check of [...waiters]) check();
  };
  const later = (ms: number, action: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };

  const server = createServer((request, response) => {
    const call: RecordedCall = {
      index: -1,
      method: request.method ?? "",
      path: request.url ?? "",
      headers: lowerCaseHeaders(request),
      body: undefined,
      closedByClient: false,
    };
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // Set when this server ends the exchange itself (a scripted reset, close()), which is not a client abort.
    let endedByServer = false;
    response.on("close", () => {
      inFlight -= 1;
      if (!response.writableFinished && !endedByServer && !closing) call.closedByClient = true;
      notify();
    });
    if (!keepAlive) response.setHeader("connection", "close");

    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      call.body = parseBody(text);
      // Recorded once the body is in, so a test that sees the call also sees its body.
      call.index = calls.length;
      calls.push(call);
      notify();
      if (call.method !== "POST" || call.path !== (options.completionsPath ?? completionsPath)) {
        send(response, errorReply(404, `Unknown path ${call.method} ${call.path}`, { code: "not_found" }));
        return;
      }
      const next = queue.shift();
      Promise.resolve()
        .then(() => next ?? handler(call))
        .then(
          (answer) => send(response, toReply(answer, call)),
          (error: unknown) =>
            send(
              response,
              errorReply(500, `scripted handler threw: ${String(error)}`, { type: "server_error" }),
            ),
        );
    });

    function send(res: ServerResponse, reply: ScriptedReply): void {
      if (res.destroyed || closing) return;
      switch (reply.kind) {
        case "json":
        case "text": {
          const body = reply.kind === "json" ? JSON.stringify(reply.body) : reply.text;
          const contentType = reply.kind === "json" ? "application/json" : reply.contentType;
          res.writeHead(reply.status, {
            "content-type": contentType,
            "content-length": Buffer.byteLength(body),
            ...reply.headers,
          });
          res.end(body);
          return;
        }
        case "delay":
          later(reply.ms, () => send(res, reply.reply));
          return;
        case "reset": {
          endedByServer = true;
          if (reply.partialBody === undefined) {
            res.socket?.resetAndDestroy();
            return;
          }
          const partial = Buffer.from(reply.partialBody);
          res.writeHead(reply.status, {
            "content-type": "application/json",
            "content-length": partial.byteLength * 2 + 16,
          });
          res.write(partial);
          // Give the headers and partial body time to leave before the reset.
          later(20, () => res.socket?.resetAndDestroy());
          return;
        }
        case "trickle": {
          const body = Buffer.from(reply.body);
          res.writeHead(reply.status, {
            "content-type": "application/json",
            "content-length": body.byteLength,
          });
          res.flushHeaders();
          let offset = 0;
          const step = () => {
            if (res.destroyed || closing) return;
            const piece = body.subarray(offset, offset + reply.chunkBytes);
            offset += piece.byteLength;
            if (offset >= body.byteLength) {
              res.end(piece);
              return;
            }
            res.write(piece);
            later(reply.intervalMs, step);
          };
          later(reply.intervalMs, step);
          return;
        }
        case "hang":
          return;
        case "huge":
          streamHuge(res, reply);
          return;
        case "events":
          void writeEvents(res, reply);
          return;
      }
    }

    async function writeEvents(res: ServerResponse, reply: Extract<ScriptedReply, { kind: "events" }>) {
      res.writeHead(reply.status, { "content-type": reply.contentType, "cache-control": "no-cache" });
      res.flushHeaders();
      for (const [index, piece] of reply.pieces.entries()) {
        await reply.gate?.(index);
        if (res.destroyed || closing) return;
        // Back-pressure: a client that stops reading is not sent the rest into memory.
        if (!res.write(piece)) await drainedOrClosed(res);
      }
      if (res.destroyed || closing) return;
      if (reply.end === "close") res.end();
      else if (reply.end === "reset") {
        endedByServer = true;
        // Give the pieces time to leave before the reset.
        later(20, () => res.socket?.resetAndDestroy());
      }
    }
  });

  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => {
      sockets.delete(socket);
      notify();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const waitFor = <T>(ready: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = ready();
        if (value === undefined) return;
        finish();
        resolve(value);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`scripted gateway: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const script = ((next: ScriptedHandler) => {
    handler = next;
    queue = [];
  }) as Script;
  script.replyWith = (replies) => {
    queue.push(...replies);
  };

  return {
    url: `http://127.0.0.1:${port}/v1`,
    calls,
    script,
    openSockets: () => sockets.size,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    waitForCalls: (count, timeoutMs = 5000) =>
      waitFor(
        () => (calls.length >= count ? calls.slice(0, count) : undefined),
        timeoutMs,
        `${count} call(s)`,
      ),
    waitForClientClose: (index, timeoutMs = 5000) =>
      waitFor(
        () => {
          const call = calls[index];
          return call?.closedByClient ? call : undefined;
        },
        timeoutMs,
        `the client to close call ${index}`,
      ),
    async close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = [
        new Promise<void>((resolve) => server.close(() => resolve())),
        ...[...sockets].map(
          (socket) => new Promise<void>((resolve) => socket.once("close", () => resolve())),
        ),
      ];
      for (const socket of sockets) socket.destroy();
      await Promise.all(closed);
    },
  };
}

/**
 * Resolves when `res` drains or closes, whichever is first, and removes both listeners then: a stream that
 * waits on back-pressure many times does not pile up one `close` listener per wait.
 */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const settle = () => {
      res.off("drain", settle);
      res.off("close", settle);
      resolve();
    };
    res.once("drain", settle);
    res.once("close", settle);
  });
}

function streamHuge(res: ServerResponse, reply: Extract<ScriptedReply, { kind: "huge" }>): void {
  const prefix =
    '{"id":"chatcmpl-huge","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"';
  const suffix = '"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}';
  const piece = "a".repeat(64 * 1024);
  let remaining = Math.max(0, reply.bytes - prefix.length - suffix.length);
  const headers: Record<string, string | number> = { "content-type": "application/json" };
  if (reply.contentLength) headers["content-length"] = prefix.length + remaining + suffix.length;
  res.writeHead(reply.status, headers);
  res.write(prefix);
  const pump = () => {
    while (remaining > 0) {
      if (res.destroyed) return;
      const next = remaining >= piece.length ? piece : piece.slice(0, remaining);
      remaining -= next.length;
      // Respect back-pressure so a client that stops reading is never sent the whole body into memory.
      if (!res.write(next)) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end(suffix);
  };
  pump();
}

function lowerCaseHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
