// Worst-case cost of the check: each adversarial family (bench/support/worst-case-families.ts) at 100 KB and
// at 4 MiB of request body (the check route's body limit), sent through the real `POST /v1/verified/check`
// path of an app in the child process, over a real socket from a separate client process (so the CPU counted is
// the service's alone, reading the body from a socket and writing the answer to one). Each family and size runs in its own child process, which is stopped when a
// request runs past the cap: such a figure is reported as "> cap". CPU time (user + system) per request, and
// the longest event-loop block during the request (the largest delay `monitorEventLoopDelay` saw: how long
// the request kept `/healthz` and every other request waiting), medians of the requests that finished
// (after unreported warm-up requests at 100 KB, and a first reported request at the size measured that the
// median leaves out); beside the CPU median, "first" is that first request's CPU at the size (what a fresh
// process's first large request costs: V8 grows its heap and tiers up code on it); the longest gap between two `/healthz` answers seen by a separate process asking every
// 100 ms (goal: under 100 ms plus that interval), and the child's peak RSS (goal: under 600 MB).
// Then each family again as a streamed create (`"stream": true`): the model's reply holds the family's claims,
// one claim a piece of its stream, so the claims arrive one at a time (bench/support/worst-case-request.ts).
//   npm run bench -- worst-case
//   WORST_CASE_ONLY=answer npm run bench -- worst-case     (only the answer-mode families)
//   WORST_CASE_PATHS=stream npm run bench -- worst-case     only the streamed table

import { spawn } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, median } from "./support/statistics.js";
import { worstCaseFamilies } from "./support/worst-case-families.js";

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = [
  { label: "100 KB", bytes: 100_000, goalMs: 50 },
  { label: "4 MiB", bytes: 4 * 1024 * 1024, goalMs: 1_000 },
];
const RUNS = 4;
// The /healthz probe asks every 100 ms: a gap of that much is no wait; the goal is no wait over 100 ms.
const HEALTHZ_GAP_GOAL_MS = 200;
const RSS_GOAL_MB = 600;
// Unreported requests at 100 KB before each family's first: the first few requests of a process pay for V8
// compiling the service's code (a 100 KB row request took 100–160 ms for its first 2–4, 10–20 ms after).
const WARM_UP_REQUESTS = 5;
const CAP_MS = Number(process.env.WORST_CASE_CAP_MS ?? 30_000);
// `WORST_CASE_ONLY=answer` runs only the families whose name holds that text.
const ONLY = process.env.WORST_CASE_ONLY;

interface Outcome {
  cpuMs: number[];
  blockMs: number[];
  healthzGapMs: number[];
  peakRssMb: number[];
  statuses: number[];
  bodyBytes: number;
  timedOut: boolean;
}

/** The request paths measured: `check` (JSON) and `stream` (a streamed create), or those WORST_CASE_PATHS names. */
const PATHS = (process.env.WORST_CASE_PATHS ?? "check,stream").split(",").filter((path) => path !== "");

function measure(family: number, bytes: number, path: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(here, "support", "worst-case-request.ts"),
        String(family),
        String(bytes),
        String(RUNS),
        String(WARM_UP_REQUESTS),
        path,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const outcome: Outcome = {
      cpuMs: [],
      blockMs: [],
      healthzGapMs: [],
      peakRssMb: [],
      statuses: [],
      bodyBytes: 0,
      timedOut: false,
    };
    let buffered = "";
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        outcome.timedOut = true;
        child.kill("SIGKILL");
      }, CAP_MS + 5_000);
    };
    arm();
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const [cpu, status, body, block, gap, _longest, rss] = buffered
          .slice(0, newline)
          .split(" ")
          .map(Number);
        buffered = buffered.slice(newline + 1);
        outcome.cpuMs.push(cpu as number);
        outcome.blockMs.push(block as number);
        outcome.healthzGapMs.push(gap as number);
        outcome.peakRssMb.push(rss as number);
        outcome.statuses.push(status as number);
        outcome.bodyBytes = body as number;
        // A request that already took longer than the cap is enough: stop the rest.
        if ((cpu as number) > CAP_MS) child.kill("SIGKILL");
        else arm();
      }
    });
    child.on("error", reject);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });
}

function describe(outcome: Outcome, values: number[]): string {
  const measured = values.length > 1 ? values.slice(1) : values;
  if (measured.length === 0) return `> ${(CAP_MS / 1000).toFixed(0)} s`;
  const value = median(measured);
  const text = value >= 1_000 ? `${(value / 1000).toFixed(2)} s` : formatMs(value);
  return outcome.timedOut && values.length < 2 ? `≥ ${text}` : text;
}

function cell(outcome: Outcome, values: number[], goalMs: number): string {
  const measured = values.length > 1 ? values.slice(1) : values;
  const met = measured.length > 0 && !outcome.timedOut && median(measured) < goalMs;
  return `${describe(outcome, values)}${met ? "" : " ✗"}`;
}

/** The CPU of the first request at the size (the one the medians leave out), against the goal. */
function firstCell(outcome: Outcome, goalMs: number): string {
  const first = outcome.cpuMs[0];
  if (first === undefined) return `> ${(CAP_MS / 1000).toFixed(0)} s`;
  const text = first >= 1_000 ? `${(first / 1000).toFixed(2)} s` : formatMs(first);
  return `${text}${first < goalMs ? "" : " ✗"}`;
}

/** The peak RSS after the family's last request (the child's largest resident set), against its goal. */
function rssCell(outcome: Outcome): string {
  const peak = outcome.peakRssMb.at(-1);
  if (peak === undefined) return "–";
  return `${peak.toFixed(0)} MB${peak < RSS_GOAL_MB && !outcome.timedOut ? "" : " ✗"}`;
}

/**
 * Prints, per family, the CPU time per request and the longest event-loop block at 100 KB and 4 MiB, and
 * whether each meets its goal.
 */
export default async function run(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  console.log(
    `CPU time per request and longest event-loop block during it, medians of up to ${RUNS - 1} after ` +
      `${WARM_UP_REQUESTS} warm-up requests at 100 KB and one at the size measured (its CPU is "first"), ` +
      `each request capped at ` +
      `${CAP_MS / 1000} s; ${cpus().length} CPUs, load average ` +
      `${loadBefore.toFixed(1)} before the run.\n`,
  );
  const headers = SIZES.flatMap((size) => [
    `${size.label} CPU (goal < ${formatMs(size.goalMs)})`,
    `${size.label} first`,
    `${size.label} longest block (goal < ${formatMs(size.goalMs)})`,
    `${size.label} /healthz gap (goal < ${formatMs(HEALTHZ_GAP_GOAL_MS)})`,
    `${size.label} peak RSS (goal < ${RSS_GOAL_MB} MB)`,
  ]);
  for (const path of PATHS) {
    console.log(
      path === "stream"
        ? '\nStreamed create (`POST /v1/verified`, `"stream": true`), the family\'s claims one per piece of the model\'s stream (an answer-mode family\'s answer as prose, `answer_format: "text"`, 64 characters a piece):\n'
        : "\nCheck (`POST /v1/verified/check`, JSON):\n",
    );
    console.log(`| family | ${headers.join(" | ")} |`);
    console.log(`|---|${headers.map(() => "---").join("|")}|`);
    for (let index = 0; index < worstCaseFamilies.length; index += 1) {
      const family = worstCaseFamilies[index];
      if (family === undefined || (ONLY !== undefined && !family.name.includes(ONLY))) continue;
      const cells: string[] = [];
      for (const size of SIZES) {
        const outcome = await measure(index, size.bytes, path);
        const expected = size.bytes > 1_000_000 ? (family.largeStatus ?? 200) : (family.smallStatus ?? 200);
        const bad = outcome.statuses.find((status) => status !== expected);
        if (bad !== undefined) throw new Error(`${family.name} at ${size.label} (${path}): status ${bad}`);
        cells.push(
          cell(outcome, outcome.cpuMs, size.goalMs),
          firstCell(outcome, size.goalMs),
          cell(outcome, outcome.blockMs, size.goalMs),
          cell(outcome, outcome.healthzGapMs, HEALTHZ_GAP_GOAL_MS),
          rssCell(outcome),
        );
      }
      console.log(`| ${family.name} | ${cells.join(" | ")} |`);
    }
  }
  console.log("\nFamilies: ");
  for (const family of worstCaseFamilies) console.log(`- ${family.name}: ${family.attacks}`);
  console.log(
    "\n✗ marks a figure over its goal (under 50 ms at 100 KB, under 1 s at 4 MiB; a /healthz gap under 200 ms, " +
      "100 ms of probe interval and 100 ms of wait; peak RSS under 600 MB). The longest block is what other " +
      "requests wait: the service checks claims in slices with turns of the event loop between them.",
  );
}
