// Child process of the worst-case bench: sends one family's request to an in-process app `runs` times
// through the real `POST /v1/verified/check` path (parsing, validation, check, serialisation) and prints
// one line per request, `<cpu ms> <status> <body bytes> <longest block ms> <longest /healthz gap ms> <longest
// /healthz answer ms> <peak RSS MB>`, so the parent can stop a request that runs too long. The longest block
// is the longest gap between two turns of a 1 ms timer ticking through the request (`monitorEventLoopDelay`
// drops the first delay, which is the whole block of a request that never yields): how long the request kept
// every other request waiting. The app also listens on a port, where a separate process (healthz-probe.mjs)
// asks `/healthz` every 100 ms: the longest gap between two of its answers from the request's start to the
// first answer to a probe sent after its end (100 ms when nothing waits), and the longest answer. Peak RSS is
// the process's largest resident set so far (`maxRSS`): every request of the family at that size and before.
// Before them, WARM_UP requests of the same family at 100 KB (at most BODY_BYTES) run unreported, so that
// the reported ones measure the check rather than V8 compiling the service's code for its first requests.
// With PATH `stream`, the same family goes through a streamed create instead (`POST /v1/verified` with
// `"stream": true`): the body carries the family's sources and options, and the model's reply is
// `{"claims": [...]}` of the family's claims, handed to the stream one claim a piece with a turn of the event
// loop between pieces, as a model writes them. It succeeds with `done`, or with the `ungrounded` error
// event of a family whose claims all fail (the status is 200 either way; another event is reported as 500).
// An answer-mode family goes through a streamed create with `answer_format: "text"`: the model answers the
// family's `answer` as prose, CHUNK_CHARS characters a piece (WORST_CASE_CHUNK_CHARS, default 64), with a turn
// of the event loop after every 64 KiB (a socket read's worth of pieces); an `extraction_failed` error event
// (the model's answer over the claim cap) is reported as 400, the status the JSON path refuses it with.
//   tsx bench/support/worst-case-request.ts FAMILY_INDEX BODY_BYTES RUNS [WARM_UP] [check|stream]

import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";
import { worstCaseFamilies } from "./worst-case-families.js";

const [familyArg, bytesArg, runsArg, warmUpArg, pathArg] = process.argv.slice(2);
const family = worstCaseFamilies[Number(familyArg)];
if (family === undefined) throw new Error(`no family ${familyArg}`);
const streamed = pathArg === "stream";
const url = streamed ? "/v1/verified" : "/v1/verified/check";
const checkBody = family.body(Number(bytesArg));
if (Buffer.byteLength(JSON.stringify(checkBody)) > Number(bytesArg))
  throw new Error(`${family.name}: body over ${bytesArg} bytes`);
const CHUNK_CHARS = Number(process.env.WORST_CASE_CHUNK_CHARS ?? 64);
const TURN_EVERY_CHARS = 64 * 1024;
/**
 * The request body: the check body, or a streamed create of its sources whose model replies its claims (or,
 * for an answer-mode family, its answer as prose).
 */
function requestOf(body: typeof checkBody): string {
  if (!streamed) return JSON.stringify(body);
  const { claims: _claims, answer, messages, ...rest } = body;
  return JSON.stringify({
    ...rest,
    model: "bench",
    messages: messages ?? [{ role: "user", content: "q" }],
    stream: true,
    ...(answer === undefined ? {} : { answer_format: "text" }),
  });
}
/** The model's reply for `body`'s claims, cut after each claim; an answer cut every CHUNK_CHARS characters. */
function replyPieces(body: typeof checkBody): string[] {
  if (body.answer !== undefined) {
    const pieces: string[] = [];
    for (let at = 0; at < body.answer.length; at += CHUNK_CHARS)
      pieces.push(body.answer.slice(at, at + CHUNK_CHARS));
    return pieces;
  }
  const claims = body.claims ?? [];
  return claims.map(
    (claim, index) =>
      `${index === 0 ? '{"claims": [' : ""}${JSON.stringify(claim)}${index === claims.length - 1 ? "]}" : ","}`,
  );
}
let currentReply: string[] = [];
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const app = await createApp({
  config: {
    ...defaultServerConfig,
    sourcesBudget: family.sourcesBudget ?? defaultServerConfig.sourcesBudget,
  },
  gateway: {
    async generate(request) {
      if (!streamed) throw new Error("the check path calls no model");
      request.stream?.onOpen();
      // Claims arrive one a turn; prose a socket read's worth of pieces a turn.
      const turnEvery =
        request.task.kind === "prose" ? Math.max(1, Math.floor(TURN_EVERY_CHARS / CHUNK_CHARS)) : 1;
      for (const [index, piece] of currentReply.entries()) {
        request.stream?.onText(piece);
        if ((index + 1) % turnEvery === 0) await nextTurn();
      }
      return { content: currentReply.join(""), usage };
    },
  },
});
/**
 * Whether an answer is a success: 200, and for a stream its last event `done` or the `ungrounded` error; a
 * model's answer over the claim cap (`extraction_failed`) is 400, as the JSON path refuses it.
 */
function statusOf(response: { statusCode: number; lastEvent: string }): number {
  if (!streamed || response.statusCode !== 200) return response.statusCode;
  const last = response.lastEvent;
  if (last.includes('"type":"extraction_failed"')) return 400;
  return last.startsWith("event: done") || last.includes('"type":"ungrounded"') ? 200 : 500;
}
// The characters kept of a streamed answer's last event: enough for its name and an error's type.
const LAST_EVENT_HEAD = 4096;
const EVENT = Buffer.from("event: ");
const NEWLINE = 10;
/**
 * Sends one request. A streamed answer is read as a stream and dropped as it comes, but for the head of its
 * last event: a socket's reader holds no more, and buffering the whole answer (`inject` keeps every chunk,
 * their concatenation and its string, megabytes for an answer of thousands of claims) would count the
 * harness's copies in the peak RSS, not the service's.
 */
async function send(body: string): Promise<{ statusCode: number; lastEvent: string }> {
  const request = {
    method: "POST" as const,
    url,
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    payload: body,
  };
  if (!streamed) {
    // Read as a stream and dropped too: `inject`'s own payload (one string of the whole body) is built in one
    // block of this process, which would count a 15 MB answer's copy as the service's block.
    const response = await app.inject({ ...request, payloadAsStream: true });
    for await (const _chunk of response.stream()) {
      // dropped
    }
    return { statusCode: response.statusCode, lastEvent: "" };
  }
  const response = await app.inject({ ...request, payloadAsStream: true });
  // An event starts at a line's start with `event: `. Line starts are found by the line breaks (a native search
  // that passes a long data line at once); the first bytes of a line cut by a chunk's end wait in `head`.
  let lastEvent = Buffer.alloc(0);
  let atLineStart = true;
  let head: Buffer | undefined;
  // Where the chunk's last event starts: its head is copied once per chunk, not once per event.
  let eventAt = -1;
  const lineAt = (chunk: Buffer, start: number): void => {
    if (chunk.length - start >= EVENT.length) {
      if (chunk.subarray(start, start + EVENT.length).equals(EVENT)) eventAt = start;
    } else if (EVENT.subarray(0, chunk.length - start).equals(chunk.subarray(start)))
      head = Buffer.from(chunk.subarray(start));
  };
  for await (const chunk of response.stream() as AsyncIterable<Buffer>) {
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
  }
  return { statusCode: response.statusCode, lastEvent: lastEvent.toString() };
}
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
if (address === null || typeof address === "string") throw new Error("no port");
/** The probe's answers, `[sent, answered]` in epoch milliseconds, in order. */
const answers: [number, number][] = [];
const probe = spawn(
  process.execPath,
  [new URL("./healthz-probe.mjs", import.meta.url).pathname, `http://127.0.0.1:${address.port}`],
  {
    stdio: ["pipe", "pipe", "inherit"],
  },
);
let probeBuffer = "";
probe.stdout?.setEncoding("utf8");
probe.stdout?.on("data", (chunk: string) => {
  probeBuffer += chunk;
  for (let newline = probeBuffer.indexOf("\n"); newline >= 0; newline = probeBuffer.indexOf("\n")) {
    const [sent, answered] = probeBuffer.slice(0, newline).split(" ").map(Number);
    answers.push([sent as number, answered as number]);
    probeBuffer = probeBuffer.slice(newline + 1);
  }
});
/** Waits until the probe has answered a probe sent at or after `time` (epoch ms). */
async function answeredAfter(time: number): Promise<void> {
  while (!answers.some(([sent]) => sent >= time)) await new Promise((resolve) => setTimeout(resolve, 10));
}
/**
 * The longest gap between two answers of the probe from `start` to its first answer to a probe sent after
 * `end` (the first gap counts from `start`), and the longest answer among those.
 */
function healthzDuring(start: number, end: number): { gapMs: number; longestMs: number } {
  let previous = start;
  let gapMs = 0;
  let longestMs = 0;
  for (const [sent, answered] of answers) {
    if (answered <= start) continue;
    gapMs = Math.max(gapMs, answered - previous);
    longestMs = Math.max(longestMs, answered - sent);
    previous = answered;
    if (sent >= end) break;
  }
  return { gapMs, longestMs };
}
await answeredAfter(Date.now());
/** Starts a 1 ms timer chain; `stop` returns the longest gap between the start and a tick or two ticks. */
function tickLongestGap(): { stop(): Promise<number> } {
  let longest = 0;
  let last = performance.now();
  let running = true;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    async stop() {
      // One more tick after the request: a request that never yielded is measured up to its end.
      await new Promise((resolve) => setTimeout(resolve, 1));
      running = false;
      clearTimeout(timer);
      tick();
      return longest;
    },
  };
}

const warmUpBody = family.body(Math.min(Number(bytesArg), 100_000));
const warmUpPayload = requestOf(warmUpBody);
for (let run = 0; run < Number(warmUpArg ?? 0); run += 1) {
  currentReply = replyPieces(warmUpBody);
  const response = await send(warmUpPayload);
  // A family already refused at 100 KB (an answer over the claim cap) warms up on that refusal.
  if (statusOf(response) !== (family.smallStatus ?? 200))
    throw new Error(`${family.name}: warm-up status ${statusOf(response)}`);
}
const payload = requestOf(checkBody);
// Loaded with task-cpu-probe.mjs (`--import`) and TASK_CPU=1, its report of each request (the task with the
// most CPU, the longest task) goes to stderr after the request; the warm-up's report is dropped.
const taskCpu = process.env.TASK_CPU === "1";
const taskReport = (): void => {
  if (taskCpu) process.kill(process.pid, "SIGUSR2");
};
taskReport();

for (let run = 0; run < Number(runsArg); run += 1) {
  currentReply = replyPieces(checkBody);
  const ticker = tickLongestGap();
  const startedAt = Date.now();
  const started = process.cpuUsage();
  const response = await send(payload);
  const used = process.cpuUsage(started);
  const endedAt = Date.now();
  const longestBlockMs = await ticker.stop();
  await answeredAfter(endedAt);
  const healthz = healthzDuring(startedAt, endedAt);
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  taskReport();
  console.log(
    `${(used.user + used.system) / 1000} ${statusOf(response)} ${Buffer.byteLength(payload)} ${longestBlockMs} ` +
      `${healthz.gapMs} ${healthz.longestMs} ${peakRssMb.toFixed(0)}`,
  );
}
probe.stdin?.end();
probe.kill();
await app.close();
