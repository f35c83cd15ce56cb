// Memory: the service's resident set during and after a 200-case eval whose cases each carry 100,000
// characters of sources (about 20 MB of JSON), with an instant gateway. The service runs in its own process
// started with --expose-gc and a tiny probe loaded with --import (support/memory-probe.ts) that, asked over
// IPC, runs a full GC and answers process.memoryUsage(): so "idle" and "after" are live memory, not garbage
// V8 has not collected yet. The peak is the kernel's high-water mark (VmHWM in /proc/<pid>/status), reset before each eval
// through /proc/<pid>/clear_refs, so no short spike between samples is missed.

import { loadavg } from "node:os";
import { cpuPlacement } from "./support/cpu-placement.js";
import { largeEvalFixture, smallCreateFixture } from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { measure, resetPeak, statusKb, withProbedService } from "./support/memory-probe.js";
import { type ServiceProcess, startServiceProcess } from "./support/service-process.js";
import { formatCount, median } from "./support/statistics.js";

const CASES = 200;
const CHARS_PER_CASE = 100_000;
const RUNS = 3;
const MB = 1024 * 1024;

interface Variant {
  name: string;
  options: { mode?: "lenient"; check_numbers?: "row" };
  /** Environment of the service process. */
  env?: Record<string, string>;
}

const VARIANTS: Variant[] = [
  { name: "defaults (strict)", options: {} },
  { name: '`mode: "lenient"`, `check_numbers: "row"`', options: { mode: "lenient", check_numbers: "row" } },
  // The RSS kept after an eval is memory glibc's malloc holds on to, not live memory (the JS heap is back to
  // idle): with a fixed mmap threshold, freed large blocks go back to the system.
  {
    name: "defaults, `MALLOC_MMAP_THRESHOLD_=131072`",
    options: {},
    env: { MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_TRIM_THRESHOLD_: "131072" },
  },
];

async function postEval(service: ServiceProcess, body: string): Promise<void> {
  const response = await fetch(`${service.url}/v1/verified/eval`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    body,
  });
  const result = (await response.json()) as {
    aggregate?: { n: number; errored: number; coverage_mean: number };
    cases?: { citations?: number }[];
  };
  const aggregate = result.aggregate;
  if (
    response.status !== 200 ||
    aggregate?.n !== CASES ||
    aggregate.errored !== 0 ||
    aggregate.coverage_mean !== 1
  ) {
    const wrong = (result.cases ?? []).flatMap((each, index) =>
      each.citations === 3 ? [] : [{ index, ...each }],
    );
    throw new Error(
      `eval answered ${response.status}: ${JSON.stringify(aggregate ?? result).slice(0, 300)}; not 3 of 3: ${JSON.stringify(wrong).slice(0, 300)}`,
    );
  }
}

/** One hostile or worst-case eval body of issue 11, and what the service must answer. */
interface HostileShape {
  name: string;
  body: () => string;
  status: number;
}

const ONE_CHAR_SOURCES = Array.from({ length: 100_000 }, (_, index) => ({ id: `s${index}`, text: "x" }));
const HOSTILE_SHAPES: HostileShape[] = [
  {
    name: "(c) 20 cases × 100,000 one-character sources (refused: over 10,000 sources per case)",
    body: () =>
      JSON.stringify({
        model: "local",
        cases: Array.from({ length: 20 }, () => ({
          messages: [{ role: "user", content: "x?" }],
          sources: ONE_CHAR_SOURCES,
        })),
      }),
    status: 400,
  },
  {
    name: "(d) 21 million `{}` cases, 60 MiB (refused at case 201)",
    body: () => `{"model":"local","cases":[${"{},".repeat(21_000_000)}{}]}`,
    status: 400,
  },
  {
    name: "accepted: 200 cases × 3,000 one-character sources (1.8 million JSON values, near the 2 million cap)",
    body: () =>
      JSON.stringify({
        model: "local",
        cases: Array.from({ length: 200 }, () => ({
          messages: [{ role: "user", content: "x?" }],
          sources: ONE_CHAR_SOURCES.slice(0, 3_000),
        })),
      }),
    status: 200,
  },
];

/** Peak RSS while the service answers each hostile shape, each in a fresh service process. */
async function measureHostileShapes(gatewayURL: string, prefix: string[]): Promise<string[]> {
  const rows: string[] = [];
  for (const shape of HOSTILE_SHAPES) {
    const body = shape.body();
    const peaks: number[] = [];
    let status = 0;
    for (let round = 0; round < RUNS; round += 1) {
      const service = await startServiceProcess({ gatewayURL, prefix });
      try {
        const pid = service.child.pid as number;
        resetPeak(pid);
        const response = await fetch(`${service.url}/v1/verified/eval`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
          body,
        });
        status = response.status;
        await response.arrayBuffer();
        peaks.push(statusKb(pid, "VmHWM") / 1024);
      } finally {
        await service.stop();
      }
    }
    rows.push(
      `| ${shape.name} | ${formatCount(body.length / MB)} MB | ${status}${status === shape.status ? "" : ` (expected ${shape.status})`} | ` +
        `**${formatCount(median(peaks))} MB** | ${peaks.map((each) => formatCount(each)).join(", ")} |`,
    );
  }
  return rows;
}

/** Prints idle, peak and after-GC resident memory of a 200 × 100,000-character eval. */
export default async function run(): Promise<void> {
  // Other work on a shared machine moves these figures; the load before the run says how much there was.
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const fixture = largeEvalFixture("bench-memory", CASES, CHARS_PER_CASE);
  const small = smallCreateFixture("bench-small");
  const gateway = await startGatewayProcess(placement.loadCommand);
  await gateway.configure({
    "bench-memory": { content: fixture.modelOutput, delayMs: 0 },
    "bench-small": { content: small.modelOutput, delayMs: 0 },
  });
  const rows: string[] = [];
  let hostileRows: string[] = [];
  let peakResettable = true;
  let bodyBytes = 0;
  try {
    hostileRows = await measureHostileShapes(gateway.url, placement.serviceCommand);
    for (const variant of VARIANTS) {
      const body = JSON.stringify({ ...fixture.request, ...variant.options });
      bodyBytes = body.length;
      const options = {
        gatewayURL: gateway.url,
        prefix: placement.serviceCommand,
        ...(variant.env ? { env: variant.env } : {}),
      };
      // Idle: started, one small create served, then a full GC.
      await withProbedService(options, small.request, async (service, pid) => {
        const idle = await measure(service.child);
        const peaks: number[] = [];
        const afters: NodeJS.MemoryUsage[] = [];
        for (let round = 0; round < RUNS; round += 1) {
          peakResettable = resetPeak(pid) && peakResettable;
          await postEval(service, body);
          peaks.push(statusKb(pid, "VmHWM") / 1024);
          afters.push(await measure(service.child));
        }
        const after = median(afters.map((each) => each.rss / MB));
        const heapAfter = median(afters.map((each) => each.heapUsed / MB));
        const added = after - idle.rss / MB;
        rows.push(
          `| ${variant.name} | ${formatCount(idle.rss / MB)} MB | **${formatCount(median(peaks))} MB** | ` +
            `**${formatCount(after)} MB** | **${added >= 0 ? "+" : ""}${formatCount(added)} MB** | ` +
            `${formatCount(idle.heapUsed / MB)} → ${formatCount(heapAfter)} MB | ` +
            `${peaks.map((each) => formatCount(each)).join(", ")} / ${afters.map((each) => formatCount(each.rss / MB)).join(", ")} |`,
        );
      });
    }
  } finally {
    await gateway.stop();
    unpin();
  }

  console.log(
    `One eval of ${CASES} cases, each with 2 sources totalling ${formatCount(CHARS_PER_CASE)} characters ` +
      `(${formatCount(bodyBytes)} bytes of JSON) and 3 claims, default eval concurrency (8), instant gateway; ` +
      `${RUNS} evals in a row per service process, medians. Idle and after: RSS after a forced full GC; ` +
      `peak: VmHWM${peakResettable ? ", reset before each eval" : " since the process started (clear_refs refused)"}. ` +
      `${placement.description}; 1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| options | idle RSS | peak RSS during eval | RSS after (GC) | after − idle | JS heap used, idle → after | each run: peak / after (MB) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log("\nGoal: peak under 600 MB; afterwards back within 50 MB of idle.");
  console.log(
    `\nHostile shapes of issue 11, each sent once to a fresh service process (${RUNS} processes, median peak).\n`,
  );
  console.log("| body | size | status | peak RSS | each run (MB) |");
  console.log("|---|---|---|---|---|");
  for (const row of hostileRows) console.log(row);
}
