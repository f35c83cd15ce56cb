// Service overhead: the same create request sent straight to an instant OpenAI-compatible gateway and
// through `verified serve` (which sends that very completion request to the gateway, then checks the
// claims), in interleaved rounds at concurrency 1 and 16. The difference is what the service adds.
// Service, gateway and load generator are 3 processes; see cpu-placement.ts for where they run.

import { loadavg } from "node:os";
import { claimsOutputSchema } from "../src/service/model-output.js";
import { buildClaimsMessages } from "../src/service/prompts.js";
import { closedLoopRequests, keepAliveAgent } from "./support/closed-loop-requests.js";
import { cpuPlacement } from "./support/cpu-placement.js";
import { checkCreateResult, smallCreateFixture } from "./support/create-fixtures.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { cpuTimeMs } from "./support/run-load.js";
import { startServiceProcess } from "./support/service-process.js";
import { formatMs, median, percentile } from "./support/statistics.js";

const ROUNDS = 7;
const BATCH = { 1: 300, 16: 1_600 } as const;
const WARMUP = 2_000;
const KEY = "bench-key";

interface Percentiles {
  p50: number;
  p99: number;
}

/** Prints p50 and p99 direct and through the service, and the difference, as medians over rounds. */
export default async function run(): Promise<void> {
  // Other work on a shared machine moves these figures; the load before the run says how much there was.
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const gateway = await startGatewayProcess(placement.loadCommand);
  const fixture = smallCreateFixture("bench-small");
  await gateway.configure({ "bench-small": { content: fixture.modelOutput, delayMs: 0 } });
  const service = await startServiceProcess({ gatewayURL: gateway.url, prefix: placement.serviceCommand });
  const pid = service.child.pid as number;
  const headers = {
    "content-type": "application/json",
    accept: "application/json",
    authorization: `Bearer ${KEY}`,
  };
  // Byte for byte what the service's OpenAI adapter sends for this create request.
  const completionRequest = Buffer.from(
    JSON.stringify({
      model: fixture.request.model,
      messages: buildClaimsMessages(fixture.request.sources, fixture.request.messages),
      response_format: {
        type: "json_schema",
        json_schema: { name: "verified_claims", schema: claimsOutputSchema, strict: true },
      },
    }),
  );
  const createRequest = Buffer.from(JSON.stringify(fixture.request));
  const direct = (concurrency: number, requests: number, agent: ReturnType<typeof keepAliveAgent>) =>
    closedLoopRequests({
      url: gateway.completionsURL,
      body: completionRequest,
      headers,
      requests,
      concurrency,
      agent,
      check: (status) => {
        if (status !== 200) throw new Error(`the gateway answered ${status}`);
      },
    });
  const throughService = (concurrency: number, requests: number, agent: ReturnType<typeof keepAliveAgent>) =>
    closedLoopRequests({
      url: `${service.url}/v1/verified`,
      body: createRequest,
      headers,
      requests,
      concurrency,
      agent,
      check: (status, body) => {
        const problem = status === 200 ? checkCreateResult(JSON.parse(body.toString()), fixture) : undefined;
        if (status !== 200 || problem) throw new Error(`the service answered ${status}: ${problem ?? body}`);
      },
    });

  const table: string[] = [];
  try {
    for (const concurrency of [1, 16] as const) {
      const directAgent = keepAliveAgent(concurrency);
      const serviceAgent = keepAliveAgent(concurrency);
      await direct(concurrency, WARMUP, directAgent);
      await throughService(concurrency, WARMUP, serviceAgent);
      const rounds: { direct: Percentiles; service: Percentiles; serviceCpuMs: number }[] = [];
      const requests = BATCH[concurrency];
      for (let round = 0; round < ROUNDS; round += 1) {
        const timedService = async () => {
          const before = cpuTimeMs([pid]) ?? Number.NaN;
          const latencies = await throughService(concurrency, requests, serviceAgent);
          return { latencies, cpuMs: ((cpuTimeMs([pid]) ?? Number.NaN) - before) / requests };
        };
        // Alternating which path goes first cancels slow drifts of the machine between the two.
        let directLatencies: number[];
        let viaService: Awaited<ReturnType<typeof timedService>>;
        if (round % 2 === 0) {
          directLatencies = await direct(concurrency, requests, directAgent);
          viaService = await timedService();
        } else {
          viaService = await timedService();
          directLatencies = await direct(concurrency, requests, directAgent);
        }
        const of = (values: number[]) => ({ p50: percentile(values, 50), p99: percentile(values, 99) });
        rounds.push({
          direct: of(directLatencies),
          service: of(viaService.latencies),
          serviceCpuMs: viaService.cpuMs,
        });
      }
      directAgent.destroy();
      serviceAgent.destroy();
      const m = (pick: (round: (typeof rounds)[number]) => number) => median(rounds.map(pick));
      table.push(
        `| ${concurrency} | ${formatMs(m((r) => r.direct.p50))} | ${formatMs(m((r) => r.service.p50))} | ` +
          `**${formatMs(m((r) => r.service.p50 - r.direct.p50))}** | ${formatMs(m((r) => r.direct.p99))} | ` +
          `${formatMs(m((r) => r.service.p99))} | **${formatMs(m((r) => r.service.p99 - r.direct.p99))}** | ` +
          `${Number.isNaN(m((r) => r.serviceCpuMs)) ? "n/a" : formatMs(m((r) => r.serviceCpuMs))} |`,
      );
    }
  } finally {
    await service.stop();
    await gateway.stop();
    unpin();
  }

  console.log(
    `Create with 2 sources and 3 claims (${createRequest.length} bytes; the gateway call carries ${completionRequest.length}); ` +
      `${ROUNDS} interleaved rounds of ${BATCH[1]} requests at concurrency 1 and ${BATCH[16].toLocaleString("en-US")} at 16, ` +
      `after ${WARMUP.toLocaleString("en-US")} warm-up requests per path; every service answer checked. ` +
      `Medians over rounds of each round's percentile. ${placement.description}; 1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| concurrency | direct p50 | via service p50 | added p50 | direct p99 | via service p99 | added p99 | service CPU per request |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const line of table) console.log(line);
  console.log("\nGoal at concurrency 1: added p50 at most 1 ms, added p99 at most 5 ms.");
}
