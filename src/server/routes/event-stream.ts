import type { FastifyReply, FastifyRequest } from "fastify";
import { STREAM_BACKLOG_BYTES } from "../../limits.js";
import { mapFrameworkError } from "../errors.js";
import { requestIdHeader, serverTimingOf, withRequestId } from "../plugins/index.js";

/** A `text/event-stream` answer, opened on first use. */
export interface EventStream {
  /** True once the 200 and its headers have gone out: from then on failures are `error` events. */
  readonly opened: boolean;
  /** Sends the status line and headers now, if not yet sent, and starts the heartbeat. */
  open(): void;
  /** Sends one event: `event: {name}` and its JSON `data:` line. */
  send(name: string, data: unknown): void;
  /** `send` with the data already serialised (`JSON.stringify`: one line). */
  sendJson(name: string, json: string): void;
  /**
   * While the caller has not taken what was written (`STREAM_BACKLOG_BYTES` or more in the response's buffer): a
   * promise that resolves once it has drained, or the caller has gone. Else undefined.
   */
  drained(): Promise<void> | undefined;
  /**
   * Sends one event whose `data:` line is the JSON `chunks` join to, written chunk by chunk as they come, each
   * once the caller has taken the one before (`drained`).
   */
  sendChunks(name: string, chunks: AsyncIterable<string>): Promise<void>;
  /** Sends `error` with the error envelope of `error` (with the request's id), then ends the stream. */
  fail(error: unknown): void;
  /** Ends the stream (idempotent). */
  end(): void;
}

/**
 * The server-sent event writer of one streamed request. It takes the reply over from Fastify (`hijack`) when
 * it opens; until then the request can still fail with an ordinary JSON error. A comment line goes out after
 * `heartbeatMs` without any write, so proxies do not close a stream the model is slow to fill; events are
 * written at once (those of one pass of the event loop together), uncompressed, and `X-Accel-Buffering: no` asks nginx not to buffer them. Writes after the
 * caller went away are dropped (its departure aborts the operation through the request's signal).
 */
export function createEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  heartbeatMs: number,
  backlogBytes = STREAM_BACKLOG_BYTES,
): EventStream {
  const raw = reply.raw;
  let opened = false;
  let ended = false;
  let heartbeat: NodeJS.Timeout | undefined;
  // While an event is written in chunks, a heartbeat would land inside its data line.
  let inEvent = false;

  const writable = () => opened && !ended && !raw.destroyed && !raw.writableEnded;
  // Events sent in one pass of the event loop go out in one write (at its end, or once COALESCE_CHARS have
  // gathered): a write costs its framing and copy, and a long answer sends thousands of events in a pass.
  let pending = "";
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (pending === "") return;
    const text = pending;
    pending = "";
    if (!writable()) return;
    raw.write(text);
    heartbeat?.refresh();
  };
  const queue = (text: string) => {
    if (!writable()) return;
    // A write stays under COALESCE_CHARS unless one event is larger.
    if (pending.length + text.length > COALESCE_CHARS) flush();
    pending += text;
    if (pending.length >= COALESCE_CHARS) flush();
    else if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  };
  const write = (text: string) => {
    flush();
    if (!writable()) return;
    raw.write(text);
    heartbeat?.refresh();
  };
  const stopHeartbeat = () => {
    clearInterval(heartbeat);
    heartbeat = undefined;
  };

  const stream: EventStream = {
    get opened() {
      return opened;
    },
    open() {
      if (opened) return;
      opened = true;
      reply.hijack();
      raw.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        // Fastify's onSend hooks never see a hijacked reply: the id and timing are set here.
        [requestIdHeader]: request.id,
        "server-timing": serverTimingOf(request.verified?.timedGateway, reply.elapsedTime),
      });
      // Sends the headers now: the caller knows the request was accepted before the first event.
      raw.flushHeaders();
      heartbeat = setInterval(() => {
        if (!inEvent) write(": keep-alive\n\n");
      }, heartbeatMs);
      raw.once("close", stopHeartbeat);
    },
    send(name, data) {
      stream.sendJson(name, JSON.stringify(data));
    },
    sendJson(name, json) {
      stream.open();
      // JSON.stringify escapes every line break, so the data is one line.
      queue(`event: ${name}\ndata: ${json}\n\n`);
    },
    drained() {
      // Events gathered for the pass's write (under COALESCE_CHARS) are not waited for: they go out with it.
      if (!writable() || raw.writableLength < backlogBytes) return undefined;
      return new Promise<void>((resolve) => {
        const done = () => {
          raw.off("drain", done);
          raw.off("close", done);
          resolve();
        };
        raw.once("drain", done);
        raw.once("close", done);
      });
    },
    async sendChunks(name, chunks) {
      stream.open();
      inEvent = true;
      try {
        write(`event: ${name}\ndata: `);
        // JSON.stringify escapes every line break, so the chunks make one line. A caller who left stops it.
        for await (const chunk of chunks) {
          if (!writable()) return;
          write(chunk);
          await stream.drained();
        }
        write("\n\n");
      } finally {
        inEvent = false;
      }
    },
    fail(error) {
      const serviceError = mapFrameworkError(error);
      if (serviceError.type === "internal_error") {
        request.log.error(
          { err: { type: (error as Error)?.name, message: (error as Error)?.message } },
          "unexpected error",
        );
      }
      stream.send("error", withRequestId(serviceError.toBody(), request.id));
      stream.end();
    },
    end() {
      if (ended) return;
      flush();
      stopHeartbeat();
      if (opened && !raw.destroyed && !raw.writableEnded) raw.end();
      ended = true;
    },
  };
  return stream;
}

/**
 * Characters of events gathered into one write at most (more go out at once). Each write costs its own framing
 * (a chunk's size and line breaks), bookkeeping and, for text outside ASCII, a pass to count its bytes: writes of
 * 32 KiB rather than 3 KiB cut the CPU of writing a stream's events by about a third (docs/benchmarks.md). A pass
 * of the event loop sends at most `EVENTS_PER_TURN` claim events, so this holds at most a few of them.
 */
const COALESCE_CHARS = 32 * 1024;
