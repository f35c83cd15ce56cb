// A separate process that sends the worst-case bench's requests to the service over a real socket, so that the
// service's process pays only for what it does for a real caller: reading the body from a socket and writing the
// answer to one. (An in-process `inject` copies every written chunk twice, in its response and in its mock
// socket, and counted both copies as the service's CPU.) Each line on stdin, `<path> <body file>`, is one POST of
// that file's bytes; each answer is read as it comes and dropped, but for the head of its last event, and printed
// as one line, `<status> <the last event's head, base64>`.
//   node bench/support/post-client.mjs http://127.0.0.1:PORT
import { readFileSync } from "node:fs";
import http from "node:http";
import readline from "node:readline";

const [base] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true });
// The bytes kept of an answer's last event: enough for its name and an error's type.
const LAST_EVENT_HEAD = 4096;
const EVENT = Buffer.from("event: ");
const NEWLINE = 10;

/**
 * The head of the last event of a stream of chunks. An event starts at a line's start with `event: `. Line
 * starts are found by the line breaks (a native search that passes a long data line at once); the first bytes
 * of a line cut by a chunk's end wait in `head`.
 */
function lastEventReader() {
  let lastEvent = Buffer.alloc(0);
  let atLineStart = true;
  let head;
  // Where the chunk's last event starts: its head is copied once per chunk, not once per event.
  let eventAt = -1;
  const lineAt = (chunk, start) => {
    if (chunk.length - start >= EVENT.length) {
      if (chunk.subarray(start, start + EVENT.length).equals(EVENT)) eventAt = start;
    } else if (EVENT.subarray(0, chunk.length - start).equals(chunk.subarray(start)))
      head = Buffer.from(chunk.subarray(start));
  };
  return {
    read(chunk) {
      if (lastEvent.length < LAST_EVENT_HEAD)
        lastEvent = Buffer.concat([lastEvent, chunk.subarray(0, LAST_EVENT_HEAD - lastEvent.length)]);
      if (head !== undefined) {
        const line = Buffer.concat([head, chunk.subarray(0, EVENT.length - head.length)]);
        const earlier = head;
        head = undefined;
        if (line.length < EVENT.length) lineAt(line, 0);
        else if (line.equals(EVENT))
          lastEvent = Buffer.concat([earlier, chunk.subarray(0, LAST_EVENT_HEAD - earlier.length)]);
      } else if (atLineStart) lineAt(chunk, 0);
      for (
        let at = chunk.indexOf(NEWLINE);
        at >= 0 && at + 1 < chunk.length;
        at = chunk.indexOf(NEWLINE, at + 1)
      )
        lineAt(chunk, at + 1);
      if (eventAt >= 0) lastEvent = Buffer.from(chunk.subarray(eventAt, eventAt + LAST_EVENT_HEAD));
      eventAt = -1;
      atLineStart = chunk.at(-1) === NEWLINE;
    },
    head: () => lastEvent,
  };
}

function post(path, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${path}`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": body.length,
          authorization: "Bearer bench-key",
        },
      },
      (response) => {
        const reader = lastEventReader();
        response.on("data", (chunk) => reader.read(chunk));
        response.on("end", () => resolve({ status: response.statusCode, head: reader.head() }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  const [path, file] = line.split(" ");
  try {
    const { status, head } = await post(path, readFileSync(file));
    process.stdout.write(`${status} ${head.toString("base64")}\n`);
  } catch (error) {
    process.stdout.write(`0 ${Buffer.from(String(error)).toString("base64")}\n`);
  }
}
agent.destroy();
