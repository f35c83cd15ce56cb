// Eval scheduling: a 200-case eval against a gateway that answers every call after 200 ms, at
// VERIFIED_EVAL_CONCURRENCY 8 and 32. With perfect scheduling the wall time is ceil(200 / concurrency) ×
// 200 ms; the table shows how far the service is from that, and the most calls the gateway saw at once.

import { loadavg } from "node:os";
import { cpuPlacement } from "./support/cpu-placement.js";
import { repeatedEvalRequest, smallCreateFixture } from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { type ServiceProcess, startServiceProcess } from "./support/service-process.js";
import { formatCount, median } from "./support/statistics.js";

const CASES = 200;
const LATENCY_MS = 200;
const CONCURRENCIES = [8, 32] as const;
const RUNS = 3;

interface EvalBody {
  aggregate: { coverage_mean: number; n: number; errored: number };
  cases: { citations?: number }[];
  usage: { model_calls: number };
}

/** Posts the eval and returns its wall time in ms, after checking every case scored 3 of 3. */
async function timedEval(service: ServiceProcess, body: string, cases: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${service.url}/v1/verified/eval`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    body,
  });
  const result = (await response.json()) as EvalBody;
  const wallMs = performance.now() - started;
  const fine =
    response.status === 200 &&
    result.aggregate.n === cases &&
    result.aggregate.errored === 0 &&
    result.aggregate.coverage_mean === 1 &&
    result.usage.model_calls === cases &&
    result.cases.every((each) => each.citations === 3);
  if (!fine) throw new Error(`eval answered ${response.status}: ${JSON.stringify(result).slice(0, 500)}`);
  return wallMs;
}

/** Prints the median wall time of a 200-case eval at each concurrency against its ideal. */
export default async function run(): Promise<void> {
  // Other work on a shared machine moves these figures; the load before the run says how much there was.
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const fixture = smallCreateFixture("bench-slow");
  const gateway = await startGatewayProcess(placement.loadCommand);
  await gateway.configure({ "bench-slow": { content: fixture.modelOutput, delayMs: LATENCY_MS } });
  const body = JSON.stringify(repeatedEvalRequest(fixture, CASES));
  const warmup = JSON.stringify(repeatedEvalRequest(fixture, 32));
  const services = new Map<number, ServiceProcess>();
  const walls = new Map<number, number[]>();
  const inFlight = new Map<number, number[]>();
  try {
    for (const concurrency of CONCURRENCIES) {
      const service = await startServiceProcess({
        gatewayURL: gateway.url,
        prefix: placement.serviceCommand,
        env: { VERIFIED_EVAL_CONCURRENCY: String(concurrency) },
      });
      services.set(concurrency, service);
      await timedEval(service, warmup, 32);
    }
    // Runs at the two concurrencies alternate, so a busier moment of the machine hits both alike.
    for (let round = 0; round < RUNS; round += 1) {
      for (const concurrency of CONCURRENCIES) {
        await gateway.stats(true);
        const wallMs = await timedEval(services.get(concurrency) as ServiceProcess, body, CASES);
        const stats = await gateway.stats(true);
        if (stats.calls !== CASES) throw new Error(`the gateway saw ${stats.calls} calls, not ${CASES}`);
        walls.set(concurrency, [...(walls.get(concurrency) ?? []), wallMs]);
        inFlight.set(concurrency, [...(inFlight.get(concurrency) ?? []), stats.maxInFlight]);
      }
    }
  } finally {
    for (const service of services.values()) await service.stop();
    await gateway.stop();
    unpin();
  }

  console.log(
    `${CASES} cases (2 sources, 3 claims each; ${formatCount(body.length)} bytes), gateway latency ${LATENCY_MS} ms; ` +
      `wall time from sending the eval to reading its result, median of ${RUNS} runs after a 32-case warm-up; ` +
      `every case checked (3 of 3 claims grounded, ${CASES} gateway calls). ${placement.description}; ` +
      `1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log("| concurrency | ideal | wall time | over ideal | most calls in flight | each run |");
  console.log("|---|---|---|---|---|---|");
  for (const concurrency of CONCURRENCIES) {
    const ideal = Math.ceil(CASES / concurrency) * LATENCY_MS;
    const runs = walls.get(concurrency) ?? [];
    const wall = median(runs);
    console.log(
      `| ${concurrency} | ${formatCount(ideal)} ms | **${formatCount(wall)} ms** | ` +
        `**${(((wall - ideal) / ideal) * 100).toFixed(1)}%** | ${Math.max(...(inFlight.get(concurrency) ?? []))} | ` +
        `${runs.map((each) => `${formatCount(each)} ms`).join(", ")} |`,
    );
  }
  console.log("\nGoal: within 10% of ideal at concurrency 8 and 32.");
}
