// Child process of the worst-case bench: sends one family's request `runs` times to an app in this process,
// over a real socket from a client process (post-client.mjs), through the real `POST /v1/verified/check` path
// (reading the body, parsing, validation, check, serialisation, writing the answer) and prints
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
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
if (address === null || typeof address === "string") throw new Error("no port");
/**
 * Requests go over a real socket from a separate process (post-client.mjs), which reads each answer as it comes
 * and drops it but for the head of its last event: this process pays only for what the service does for a real
 * caller. (`inject`, in process, copied every chunk written twice and counted both copies as the service's CPU,
 * and buffered the answer into this process's peak RSS.) Each body is written to a file before it is measured.
 */
const client = spawn(
  process.execPath,
  [new URL("./post-client.mjs", import.meta.url).pathname, `http://127.0.0.1:${address.port}`],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const clientLines: string[] = [];
let clientBuffer = "";
let clientWaiting: (() => void) | undefined;
client.stdout?.setEncoding("utf8");
client.stdout?.on("data", (chunk: string) => {
  clientBuffer += chunk;
  for (let newline = clientBuffer.indexOf("\n"); newline >= 0; newline = clientBuffer.indexOf("\n")) {
    clientLines.push(clientBuffer.slice(0, newline));
    clientBuffer = clientBuffer.slice(newline + 1);
  }
  if (clientLines.length > 0) clientWaiting?.();
});
const bodyDir = mkdtempSync(join(tmpdir(), "worst-case-"));
let bodies = 0;
/** Writes a request body to a file of its own, for `send`. */
function bodyFile(body: string): string {
  const file = join(bodyDir, `body-${bodies++}.json`);
  writeFileSync(file, body);
  return file;
}
/** Sends the body in `file` through the client process; its status and the head of its last event. */
async function send(file: string): Promise<{ statusCode: number; lastEvent: string }> {
  client.stdin?.write(`${url} ${file}\n`);
  while (clientLines.length === 0) await new Promise<void>((resolve) => (clientWaiting = resolve));
  clientWaiting = undefined;
  const [status, head] = (clientLines.shift() as string).split(" ");
  if (Number(status) === 0) throw new Error(`request failed: ${Buffer.from(head ?? "", "base64")}`);
  return { statusCode: Number(status), lastEvent: Buffer.from(head ?? "", "base64").toString() };
}
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
const warmUpFile = bodyFile(warmUpPayload);
for (let run = 0; run < Number(warmUpArg ?? 0); run += 1) {
  currentReply = replyPieces(warmUpBody);
  const response = await send(warmUpFile);
  // A family already refused at 100 KB (an answer over the claim cap) warms up on that refusal.
  if (statusOf(response) !== (family.smallStatus ?? 200))
    throw new Error(`${family.name}: warm-up status ${statusOf(response)}`);
}
const payload = requestOf(checkBody);
const payloadFile = bodyFile(payload);
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
  const response = await send(payloadFile);
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
client.stdin?.end();
rmSync(bodyDir, { recursive: true, force: true });
await app.close();
