// Eval `details` with large model answers (issue 24, item 10): one eval of 200 cases with 100,000 characters
// of sources each (about 20 MB of JSON) whose gateway answers about 2 MB of claims per case (half of them
// held, half not), without details, with `details: true`, and with `details: true` streamed. Per variant, a
// fresh service process (with the probe of support/memory-probe.ts) runs three evals in a row; the table
// gives the median peak RSS (VmHWM, reset before each eval), the longest event-loop delay during the eval
// (monitorEventLoopDelay inside the service), the answer's size and how many cases kept their `result`.
//   npm run build && npm run bench -- eval-details

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
  options: { details?: boolean; stream?: boolean };
}

const VARIANTS: Variant[] = [
  { name: "without details", options: {} },
  { name: "`details: true`", options: { details: true } },
  { name: "`details: true`, streamed", options: { details: true, stream: true } },
];

interface CaseShape {
  error?: unknown;
  result?: unknown;
  result_omitted?: string;
}
interface EvalAnswer {
  status: number;
  bytes: number;
  ms: number;
  kept: number;
  omitted: number;
  problem?: string;
}

/** The eval's result: the JSON body, or a stream's `done` event. */
function resultOf(
  text: string,
  streamed: boolean,
): { aggregate?: { n: number; errored: number }; cases?: CaseShape[] } {
  if (!streamed) return JSON.parse(text);
  const done = text.lastIndexOf("event: done\ndata: ");
  if (done < 0) return {};
  const data = text.slice(done + "event: done\ndata: ".length);
  return JSON.parse(data.slice(0, data.indexOf("\n")));
}

async function postEval(service: ServiceProcess, body: string, streamed: boolean): Promise<EvalAnswer> {
  const started = performance.now();
  const response = await fetch(`${service.url}/v1/verified/eval`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    body,
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const answer = { status: response.status, bytes: Buffer.byteLength(text), ms, kept: 0, omitted: 0 };
  if (response.status !== 200) return { ...answer, problem: text.slice(0, 200) };
  const result = resultOf(text, streamed);
  if (result.aggregate?.n !== CASES || result.aggregate.errored !== 0)
    return { ...answer, problem: JSON.stringify(result.aggregate ?? text.slice(0, 200)) };
  for (const each of result.cases ?? []) {
    if (each.result !== undefined) answer.kept += 1;
    if (each.result_omitted !== undefined) answer.omitted += 1;
  }
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
            `${last.kept} / ${last.omitted} | ${peaks.map(formatCount).join(", ")} / ${delays.map(formatCount).join(", ")} |`,
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
    "| eval | status | peak RSS | longest event-loop delay | wall time | answer | cases with result / omitted | each run: peak (MB) / delay (ms) |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log("\nGoal: peak under 600 MB; no event-loop delay over 100 ms.");
}
