// Scale out: small create requests per second through `verified serve --workers N` (node:cluster) for
// N = 1 and 2, with an instant gateway in another process and autocannon in this one. Nothing is pinned:
// the workers, the cluster primary (which hands connections to workers round-robin), the gateway and the
// load generator share the machine's cores as the OS schedules them. Runs of N = 1 and 2 alternate.

import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { checkCreateResult, smallCreateFixture } from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { type LoadResult, runLoad } from "./support/run-load.js";
import { type ServiceProcess, startServiceProcess } from "./support/service-process.js";
import { formatCount, median } from "./support/statistics.js";

const WORKERS = [1, 2] as const;
const RUNS = 5;
const SECONDS = 5;
const WARMUP_SECONDS = 3;
const CONNECTIONS = 32;

/** The service's processes: the primary and, with --workers above 1, its forked workers. */
function processTree(service: ServiceProcess): number[] {
  const primary = service.child.pid as number;
  let listing = "";
  try {
    listing = execFileSync("ps", ["-o", "pid=", "--ppid", String(primary)], { encoding: "utf8" });
  } catch {
    // ps exits with 1 when the process has no children (--workers 1).
  }
  const children = listing
    .split("\n")
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [primary, ...children];
}

/** Prints the median small-create throughput at 1 and 2 workers. */
export default async function run(): Promise<void> {
  // Other work on a shared machine moves these figures; the load before the run says how much there was.
  const loadBefore = loadavg()[0] ?? 0;
  const fixture = smallCreateFixture("bench-small");
  const gateway = await startGatewayProcess();
  await gateway.configure({ "bench-small": { content: fixture.modelOutput, delayMs: 0 } });
  const services = new Map<number, ServiceProcess>();
  const results = new Map<number, LoadResult[]>();
  const headers = { "content-type": "application/json", authorization: "Bearer bench-key" };
  const body = JSON.stringify(fixture.request);
  try {
    for (const workers of WORKERS) {
      services.set(workers, await startServiceProcess({ gatewayURL: gateway.url, workers }));
    }
    const load = (workers: number, seconds: number) => {
      const service = services.get(workers) as ServiceProcess;
      return runLoad({
        url: `${service.url}/v1/verified`,
        body,
        headers,
        connections: CONNECTIONS,
        seconds,
        verify: (text) => checkCreateResult(JSON.parse(text), fixture) === undefined,
        servicePids: processTree(service),
      });
    };
    for (const workers of WORKERS) {
      const pids = processTree(services.get(workers) as ServiceProcess);
      if (pids.length !== (workers === 1 ? 1 : workers + 1))
        throw new Error(`--workers ${workers} runs ${pids.length} processes`);
      // Also gives every worker its first connections and a warm JIT.
      await load(workers, WARMUP_SECONDS);
    }
    for (let round = 0; round < RUNS; round += 1) {
      for (const workers of WORKERS) {
        results.set(workers, [...(results.get(workers) ?? []), await load(workers, SECONDS)]);
      }
    }
  } finally {
    for (const service of services.values()) await service.stop();
    await gateway.stop();
  }

  console.log(
    `Small creates (2 sources, 3 claims), ${CONNECTIONS} connections, median of ${RUNS} runs of ${SECONDS} s after a ` +
      `${WARMUP_SECONDS} s warm-up; every response checked. ${cpus().length} cores shared, unpinned, by the service ` +
      `processes, the instant gateway and autocannon; 1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| `--workers` | requests/s | vs 1 worker | p50 | p99 | CPU per request (all service processes) | each run (req/s) |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const base = median((results.get(1) ?? []).map((each) => each.requestsPerSecond));
  for (const workers of WORKERS) {
    const runs = results.get(workers) ?? [];
    const rate = median(runs.map((each) => each.requestsPerSecond));
    const cpu = runs.map((each) => each.serviceCpuMsPerRequest).filter((value) => value !== undefined);
    console.log(
      `| ${workers} | **${formatCount(rate)}** | ×${(rate / base).toFixed(2)} | ${median(runs.map((each) => each.p50Ms))} ms | ` +
        `${median(runs.map((each) => each.p99Ms))} ms | ${cpu.length > 0 ? `${median(cpu).toFixed(2)} ms` : "n/a"} | ` +
        `${runs.map((each) => formatCount(each.requestsPerSecond)).join(", ")} |`,
    );
  }
}
