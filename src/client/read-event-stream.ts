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
