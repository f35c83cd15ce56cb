// Throughput: create requests per second through one `verified serve` process with an instant gateway,
// for a small payload (2 sources, 3 claims) and a large one (about 100,000 characters, 100 claims, lenient,
// `check_numbers: "row"`), driven by autocannon. Every response body is checked (claims, reasons, ranges),
// and any non-2xx, error or wrong body fails the run. Runs of the two payloads alternate.

import { loadavg } from "node:os";
import { cpuPlacement } from "./support/cpu-placement.js";
import {
  type CreateFixture,
  checkCreateResult,
  largeCreateFixture,
  smallCreateFixture,
} from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { type LoadResult, runLoad } from "./support/run-load.js";
import { type ServiceProcess, startServiceProcess } from "./support/service-process.js";
import { formatCount, median } from "./support/statistics.js";

const RUNS = 5;
const SECONDS = 5;
const WARMUP_SECONDS = 3;

interface Workload {
  name: string;
  fixture: CreateFixture;
  connections: number;
  /** Which service process serves it. */
  service: "default" | "quiet";
}

const headers = { "content-type": "application/json", authorization: "Bearer bench-key" };

async function checkOnce(service: ServiceProcess, fixture: CreateFixture): Promise<void> {
  const response = await fetch(`${service.url}/v1/verified`, {
    method: "POST",
    headers,
    body: JSON.stringify(fixture.request),
  });
  const body: unknown = await response.json();
  const problem = response.status === 200 ? checkCreateResult(body, fixture) : JSON.stringify(body);
  if (problem) throw new Error(`${fixture.request.model}: ${problem}`);
}

/** Prints the median requests/s of each payload, with latency and the service's CPU time per request. */
export default async function run(): Promise<void> {
  // Other work on a shared machine moves these figures; the load before the run says how much there was.
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const small = smallCreateFixture("bench-small");
  const large = largeCreateFixture("bench-large");
  const gateway = await startGatewayProcess(placement.loadCommand);
  await gateway.configure({
    "bench-small": { content: small.modelOutput, delayMs: 0 },
    "bench-large": { content: large.modelOutput, delayMs: 0 },
  });
  const services: Record<Workload["service"], ServiceProcess | undefined> = {
    default: undefined,
    quiet: undefined,
  };
  const workloads: Workload[] = [
    { name: "small", fixture: small, connections: 32, service: "default" },
    { name: "large", fixture: large, connections: 8, service: "default" },
    { name: "small, `VERIFIED_LOG_LEVEL=warn`", fixture: small, connections: 32, service: "quiet" },
  ];
  const results = new Map<string, LoadResult[]>();
  try {
    services.default = await startServiceProcess({
      gatewayURL: gateway.url,
      prefix: placement.serviceCommand,
    });
    // The same service without its per-request log line, to show what logging costs.
    services.quiet = await startServiceProcess({
      gatewayURL: gateway.url,
      prefix: placement.serviceCommand,
      env: { VERIFIED_LOG_LEVEL: "warn" },
    });
    const load = (workload: Workload, seconds: number) => {
      const service = services[workload.service] as ServiceProcess;
      return runLoad({
        url: `${service.url}/v1/verified`,
        body: JSON.stringify(workload.fixture.request),
        headers,
        connections: workload.connections,
        seconds,
        verify: (body) => checkCreateResult(JSON.parse(body), workload.fixture) === undefined,
        servicePids: [service.child.pid as number],
      });
    };
    for (const workload of workloads) {
      await checkOnce(services[workload.service] as ServiceProcess, workload.fixture);
      await load(workload, WARMUP_SECONDS);
    }
    for (let round = 0; round < RUNS; round += 1) {
      for (const workload of workloads) {
        results.set(workload.name, [...(results.get(workload.name) ?? []), await load(workload, SECONDS)]);
      }
    }
  } finally {
    await services.default?.stop();
    await services.quiet?.stop();
    await gateway.stop();
    unpin();
  }

  const sizes = workloads.map((workload) => {
    const chars = workload.fixture.request.sources.reduce((sum, source) => sum + source.text.length, 0);
    return `${workload.name}: ${formatCount(JSON.stringify(workload.fixture.request).length)} bytes, ${formatCount(chars)} characters of sources`;
  });
  console.log(
    `One service process (default settings, info logs to /dev/null), instant gateway in another process; ` +
      `${[...new Set(sizes)].join("; ")}. Median of ${RUNS} runs of ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up, ` +
      `runs of each payload alternating; every response checked. ${placement.description}; ` +
      `1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| payload | connections | requests/s | p50 | p99 | service CPU per request | each run (req/s) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const workload of workloads) {
    const runs = results.get(workload.name) ?? [];
    const cpu = runs.map((each) => each.serviceCpuMsPerRequest).filter((value) => value !== undefined);
    console.log(
      `| ${workload.name} | ${workload.connections} | **${formatCount(median(runs.map((each) => each.requestsPerSecond)))}** | ` +
        `${median(runs.map((each) => each.p50Ms))} ms | ${median(runs.map((each) => each.p99Ms))} ms | ` +
        `${cpu.length > 0 ? `${median(cpu).toFixed(2)} ms` : "n/a"} | ${runs.map((each) => formatCount(each.requestsPerSecond)).join(", ")} |`,
    );
  }
  console.log("\nGoal: at least 2,000 small requests/s with one process.");
}
