import { createParser } from "eventsource-parser";

/** One server-sent event with its data parsed as JSON. */
export interface StreamEvent {
  event: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the service sent.
  data: any;
}

/** Reads a whole event stream's text: its events (data parsed as JSON) and its comment lines. */
export function parseEventStream(text: string): { events: StreamEvent[]; comments: string[] } {
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event) => events.push({ event: event.event ?? "message", data: JSON.parse(event.data) }),
    onComment: (comment) => comments.push(comment),
  });
  parser.feed(text);
  return { events, comments };
}

/** A streamed answer being read: events and comments as they arrive. */
export interface OpenStream {
  status: number;
  headers: Headers;
  /** The next event, or undefined once the stream ended. */
  next(): Promise<StreamEvent | undefined>;
  /** Every event until the end. */
  rest(): Promise<StreamEvent[]>;
  /** Resolves once a comment line has arrived. */
  comment(): Promise<string>;
  /** Drops the connection, as a caller that goes away does. */
  abort(): void;
}

/** POSTs `body` to `url` and reads the answer as an event stream while it arrives. */
export async function openEventStream(url: string, body: unknown, key = "test-key"): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const queue: StreamEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const parser = createParser({
    onEvent: (event) => queue.push({ event: event.event ?? "message", data: JSON.parse(event.data) }),
    onComment: (comment) => comments.push(comment),
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        wake?.();
      }
    } catch {
      // aborted
    }
    ended = true;
    wake?.();
  })();
  const until = async <T>(ready: () => T | undefined): Promise<T | undefined> => {
    for (;;) {
      const value = ready();
      if (value !== undefined || ended) return value ?? ready();
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    next: () => until(() => queue.shift()),
    async rest() {
      await until(() => undefined);
      return queue.splice(0);
    },
    async comment() {
      const comment = await until(() => comments[0]);
      if (comment === undefined) throw new Error("the stream ended without a comment");
      return comment;
    },
    abort: () => controller.abort(),
  };
}
