// Eval `details` with large model answers (issue 24, item 10): one eval of 200 cases with 100,000 characters
// of sources each (about 20 MB of JSON) whose gateway answers about 2 MB of claims per case (half of them
// held, half not), without details, with `details: true`, and with `details: true` streamed; then, for what
// the 20 MB request costs by itself, `details: true` answered with 3 claims per case. Per variant, a
// fresh service process (with the probe of support/memory-probe.ts) runs three evals in a row; the table
// gives the median peak RSS (VmHWM, reset before each eval), the longest event-loop delay during the eval
// (monitorEventLoopDelay inside the service), the answer's size, how many cases kept their `result` and the
// answer's sha256 (its first 12 hex digits, each distinct one of the three runs: a change that must not
// change answers keeps them; a streamed answer's cases come in the order they end, so its bytes vary).
//   npm run build && npm run bench -- eval-details

import { createHash } from "node:crypto";
import { loadavg } from "node:os";
import { cpuPlacement } from "./support/cpu-placement.js";
import { largeAnswerOutput, largeEvalFixture, smallCreateFixture } from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { maxEventLoopDelay, resetPeak, statusKb, withProbedService } from "./support/memory-probe.js";
import type { ServiceProcess } from "./support/service-process.js";
import { formatCount, median } from "./support/statistics.js";

const CASES = 200;
const CHARS_PER_CASE = 100_000;
const ANSWER_CHARS = 2_000_000;
const RUNS = 3;
const MB = 1024 * 1024;

interface Variant {
  name: string;
  options: { details?: boolean; stream?: boolean; model?: string };
}

const VARIANTS: Variant[] = [
  { name: "without details", options: {} },
  { name: "`details: true`", options: { details: true } },
  { name: "`details: true`, streamed", options: { details: true, stream: true } },
  // The same request answered with 3 claims per case: what the 20 MB request costs by itself.
  { name: "`details: true`, 3 claims per answer", options: { details: true, model: "bench-3-claims" } },
];

interface EvalAnswer {
  status: number;
  bytes: number;
  ms: number;
  kept: number;
  omitted: number;
  /** The first 12 hex digits of the answer's sha256 (the same request must answer the same bytes). */
  sha256: string;
  problem?: string;
}

/** Occurrences of `marker` in a body read chunk by chunk (the answer may be longer than a string can be). */
function markerCounter(markers: readonly string[]) {
  const counts = markers.map(() => 0);
  let tail = "";
  return {
    counts,
    feed(text: string) {
      const window = tail + text;
      for (const [index, marker] of markers.entries()) {
        for (let at = window.indexOf(marker); at >= 0; at = window.indexOf(marker, at + 1))
          if (at + marker.length > tail.length) counts[index] = (counts[index] as number) + 1;
      }
      tail = window.slice(-64);
    },
  };
}

// The aggregate ends so when every case was scored (no `correct_rate`: the cases carry no `expected`).
const aggregateMarker = `"n":${CASES},"errored":0},`;

/**
 * Posts the eval and reads its answer as bytes, counting the cases that kept `result` and those marked
 * `result_omitted` (a streamed answer holds each case twice: its `case` event and `done`).
 */
async function postEval(service: ServiceProcess, body: string, streamed: boolean): Promise<EvalAnswer> {
  const started = performance.now();
  const response = await fetch(`${service.url}/v1/verified/eval`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    body,
  });
  const counter = markerCounter(['"result":{', '"result_omitted":"details_budget"', aggregateMarker]);
  const decoder = new TextDecoder();
  const hash = createHash("sha256");
  let bytes = 0;
  let start = "";
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    bytes += chunk.byteLength;
    hash.update(chunk);
    const text = decoder.decode(chunk, { stream: true });
    if (start.length < 300) start += text.slice(0, 300);
    counter.feed(text);
  }
  const ms = performance.now() - started;
  const [kept = 0, omitted = 0, aggregates = 0] = counter.counts.map((count) =>
    streamed ? count / 2 : count,
  );
  const sha256 = hash.digest("hex").slice(0, 12);
  const answer = { status: response.status, bytes, ms, kept, omitted, sha256 };
  if (response.status !== 200) return { ...answer, problem: start.slice(0, 200) };
  if (aggregates !== (streamed ? 0.5 : 1))
    return { ...answer, problem: `no ${aggregateMarker}: ${start.slice(0, 200)}` };
  return answer;
}

/** Prints one row per variant: medians of three evals, each run's figures after them. */
export default async function run(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const fixture = largeEvalFixture("bench-details", CASES, CHARS_PER_CASE);
  const answer = largeAnswerOutput(ANSWER_CHARS);
  const small = smallCreateFixture("bench-small");
  const gateway = await startGatewayProcess(placement.loadCommand);
  await gateway.configure({
    "bench-details": { content: answer.modelOutput, delayMs: 0 },
    "bench-3-claims": { content: fixture.modelOutput, delayMs: 0 },
    "bench-small": { content: small.modelOutput, delayMs: 0 },
  });
  const rows: string[] = [];
  let bodyBytes = 0;
  try {
    for (const variant of VARIANTS) {
      const body = JSON.stringify({ ...fixture.request, ...variant.options });
      bodyBytes = body.length;
      const options = { gatewayURL: gateway.url, prefix: placement.serviceCommand };
      await withProbedService(options, small.request, async (service, pid) => {
        const peaks: number[] = [];
        const delays: number[] = [];
        const answers: EvalAnswer[] = [];
        for (let round = 0; round < RUNS; round += 1) {
          resetPeak(pid);
          await maxEventLoopDelay(service.child);
          const evaluated = await postEval(service, body, variant.options.stream === true);
          delays.push(await maxEventLoopDelay(service.child));
          peaks.push(statusKb(pid, "VmHWM") / 1024);
          answers.push(evaluated);
        }
        const last = answers.at(-1) as EvalAnswer;
        const status = answers.map((each) => each.problem ?? String(each.status)).join(", ");
        rows.push(
          `| ${variant.name} | ${status} | **${formatCount(median(peaks))} MB** | **${formatCount(median(delays))} ms** | ` +
            `${formatCount(median(answers.map((each) => each.ms)))} ms | ${formatCount(last.bytes / MB)} MB | ` +
            `${last.kept} / ${last.omitted} | ${[...new Set(answers.map((each) => each.sha256))].join(", ")} | ${peaks.map(formatCount).join(", ")} / ${delays.map(formatCount).join(", ")} |`,
        );
      });
    }
  } finally {
    await gateway.stop();
    unpin();
  }
  console.log(
    `One eval of ${CASES} cases, each with 2 sources totalling ${formatCount(CHARS_PER_CASE)} characters ` +
      `(${formatCount(bodyBytes)} bytes of JSON); the gateway answers each case with ${formatCount(answer.modelOutput.length)} ` +
      `characters (${formatCount(answer.claims)} claims, half held); default eval concurrency (8); ${RUNS} evals in a ` +
      `row per service process, medians. ${placement.description}; 1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| eval | status | peak RSS | longest event-loop delay | wall time | answer | cases with result / omitted | answer sha256 | each run: peak (MB) / delay (ms) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log("\nGoal: peak under 600 MB; no event-loop delay over 100 ms.");
}
