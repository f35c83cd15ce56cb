// The drop-in's cost: a plain Chat Completions request sent straight to an instant OpenAI-compatible gateway,
// through the service's `POST /v1/chat/completions` (a passthrough: no verification asked), and through the
// Portkey AI Gateway (`@portkey-ai/gateway`, routed to the same gateway as a custom host), in interleaved
// rounds at concurrency 1 and 16. Then streams: time to the first content chunk passthrough and verified, and
// how long after the last content chunk the verification chunk arrives, for a 4 KB answer.
// The service and Portkey share one core, the gateway and the load generator the other (cpu-placement.ts).

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { findPortkeyServer, startPortkeyGateway } from "../test/support/start-portkey-gateway.js";
import { closedLoopRequests, keepAliveAgent } from "./support/closed-loop-requests.js";
import { cpuPlacement } from "./support/cpu-placement.js";
import { startGatewayProcess } from "./support/gateway-process.js";
import { startServiceProcess } from "./support/service-process.js";
import { formatMs, median, percentile } from "./support/statistics.js";

const ROUNDS = 5;
const BATCH = { 1: 200, 16: 800 } as const;
const WARMUP = 500;
const STREAM_RUNS = 15;
const KEY = "bench-key";
const source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million, up 22% over 2023. The company employs 240 people in four offices.",
};

/** Prints added p50/p99 of the service's passthrough and of Portkey side by side, then the stream figures. */
export default async function run(): Promise<void> {
  // CHAT_BENCH_STREAMS=only: the stream figures alone (about 20 s), for comparing commits on a busy machine.
  if (process.env.CHAT_BENCH_STREAMS === "only") {
    console.log(`1-minute load average ${(loadavg()[0] ?? 0).toFixed(1)} before the run.\n`);
    console.log(await streamFigures());
    return;
  }
  const portkeyServer = findPortkeyServer();
  if (portkeyServer === undefined) {
    console.log("@portkey-ai/gateway is not installed (a devDependency): nothing to compare with; skipped.");
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const placement = cpuPlacement();
  const unpin = placement.pinSelf();
  const gateway = await startGatewayProcess(placement.loadCommand);
  await gateway.configure({
    "bench-chat": { content: "Northwind was founded in 2016 in Lyon [report].", delayMs: 0 },
  });
  const service = await startServiceProcess({ gatewayURL: gateway.url, prefix: placement.serviceCommand });
  const portkey = await startPortkeyGateway(portkeyServer, 60_000, placement.serviceCommand);
  const body = Buffer.from(
    JSON.stringify({
      model: "bench-chat",
      messages: [{ role: "user", content: "When was Northwind founded?" }],
    }),
  );
  const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
  const paths = {
    direct: { url: gateway.completionsURL, headers },
    service: { url: `${service.url}/v1/chat/completions`, headers },
    portkey: {
      url: `${portkey.url}/chat/completions`,
      headers: { ...headers, "x-portkey-provider": "openai", "x-portkey-custom-host": gateway.url },
    },
  } as const;
  type Path = keyof typeof paths;
  const send = (
    path: Path,
    concurrency: number,
    requests: number,
    agent: ReturnType<typeof keepAliveAgent>,
  ) =>
    closedLoopRequests({
      url: paths[path].url,
      body,
      headers: paths[path].headers,
      requests,
      concurrency,
      agent,
      check: (status, answer) => {
        if (status !== 200 || !answer.toString().includes("chat.completion"))
          throw new Error(`${path} answered ${status}: ${answer.toString().slice(0, 200)}`);
      },
    });

  const table: string[] = [];
  let streams = "";
  try {
    for (const concurrency of [1, 16] as const) {
      const order: Path[] = ["direct", "service", "portkey"];
      // Each batch has its own connections, warmed first: a server closes keep-alive connections left idle
      // for 5 s, longer than the other paths' batches take.
      const batch = async (path: Path, requests: number) => {
        const agent = keepAliveAgent(concurrency);
        try {
          await send(path, concurrency, 4 * concurrency, agent);
          return await send(path, concurrency, requests, agent);
        } finally {
          agent.destroy();
        }
      };
      for (const path of order) await batch(path, WARMUP);
      const rounds: Record<Path, { p50: number; p99: number }>[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const result = {} as Record<Path, { p50: number; p99: number }>;
        // Rotating which path goes first cancels slow drifts of the machine between them.
        for (let step = 0; step < order.length; step += 1) {
          const path = order[(round + step) % order.length] as Path;
          const latencies = await batch(path, BATCH[concurrency]);
          result[path] = { p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
        }
        rounds.push(result);
      }
      const m = (pick: (round: (typeof rounds)[number]) => number) => formatMs(median(rounds.map(pick)));
      table.push(
        `| ${concurrency} | ${m((r) => r.direct.p50)} | **${m((r) => r.service.p50 - r.direct.p50)}** | ` +
          `**${m((r) => r.portkey.p50 - r.direct.p50)}** | ${m((r) => r.direct.p99)} | ` +
          `**${m((r) => r.service.p99 - r.direct.p99)}** | **${m((r) => r.portkey.p99 - r.direct.p99)}** |`,
      );
    }
    streams = await streamFigures();
  } finally {
    await portkey.close();
    await service.stop();
    await gateway.stop();
    unpin();
  }

  console.log(
    `A plain chat completion (${body.length} bytes, no verification): straight to the instant gateway, through the service's passthrough, and through @portkey-ai/gateway with the gateway as custom host. ` +
      `${ROUNDS} rotated rounds of ${BATCH[1]} requests at concurrency 1 and ${BATCH[16]} at 16 per path, after ${WARMUP} warm-up requests each; medians over rounds of each round's percentile. ` +
      `${placement.description}; Portkey pinned beside the service; 1-minute load average ${loadBefore.toFixed(1)} before the run.\n`,
  );
  console.log(
    "| concurrency | direct p50 | added p50: service | added p50: Portkey | direct p99 | added p99: service | added p99: Portkey |",
  );
  console.log("|---|---|---|---|---|---|---|");
  for (const line of table) console.log(line);
  console.log(`\n${streams}`);
}

/**
 * A gateway in this process streams a 4 KB answer in 4-character chunks, one every 0.2 ms of a timer; the
 * client reads the service's stream (passthrough, then verified) and takes, on one clock, the time to the
 * first content chunk and the gap from the last content chunk to the verification chunk.
 */
async function streamFigures(): Promise<string> {
  const sentence =
    "Northwind was founded in 2016 in Lyon [report]. It employs 240 people in four offices [report]. ";
  const answer = sentence.repeat(Math.ceil(4096 / sentence.length)).slice(0, 4096);
  const pieces: string[] = [];
  for (let index = 0; index < answer.length; index += 4) pieces.push(answer.slice(index, index + 4));
  const chunk = (choices: unknown[]) =>
    `data: ${JSON.stringify({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 0, model: "m", choices })}\n\n`;
  // The gateway and the client share this process's clock: the gap is taken from the gateway's write.
  let lastContentWritten = Number.NaN;
  const upstream = createServer((request, response) => {
    request.resume();
    request.on("end", async () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]));
      for (const [index, piece] of pieces.entries()) {
        response.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
        if (index % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 1));
      }
      lastContentWritten = performance.now();
      response.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamURL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  // A second service process pointed at this streaming gateway.
  const streaming = await startServiceProcess({ gatewayURL: upstreamURL });
  const measure = async (verification: boolean) => {
    const started = performance.now();
    const response = await fetch(`${streaming.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        model: "m",
        stream: true,
        messages: [{ role: "user", content: "Tell me about Northwind." }],
        ...(verification ? { verification: { sources: [source] } } : {}),
      }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    let firstContent = Number.NaN;
    let report = Number.NaN;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const now = performance.now();
      const piece = decoder.decode(value, { stream: true });
      text += piece;
      if (/"content":"[^"]/.test(piece)) {
        if (Number.isNaN(firstContent)) firstContent = now;
      }
      if (piece.includes('"verification"')) report = now;
    }
    if (verification && !text.includes('"verdict":"pass"'))
      throw new Error("the verified stream did not pass");
    return { firstContent: firstContent - started, reportGap: report - lastContentWritten };
  };
  const runs: { passthrough: number; verified: number; gap: number }[] = [];
  try {
    for (let run = 0; run < STREAM_RUNS + 2; run += 1) {
      const plain = await measure(false);
      const verified = await measure(true);
      // The first two runs warm the service up.
      if (run >= 2)
        runs.push({
          passthrough: plain.firstContent,
          verified: verified.firstContent,
          gap: verified.reportGap,
        });
    }
  } finally {
    await streaming.stop();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  }
  const m = (pick: (run: (typeof runs)[number]) => number) => formatMs(median(runs.map(pick)));
  const max = (pick: (run: (typeof runs)[number]) => number) => formatMs(Math.max(...runs.map(pick)));
  return [
    `Streams: a ${answer.length.toLocaleString("en-US")}-character answer in ${pieces.length.toLocaleString("en-US")} chunks from a gateway in the load process, unpinned service; medians of ${STREAM_RUNS} runs (max in brackets).`,
    "",
    "| | median |",
    "|---|---|",
    `| time to first content chunk, passthrough | ${m((r) => r.passthrough)} (${max((r) => r.passthrough)}) |`,
    `| time to first content chunk, verified | ${m((r) => r.verified)} (${max((r) => r.verified)}) |`,
    `| verified minus passthrough, first content chunk | ${m((r) => r.verified - r.passthrough)} |`,
    `| the gateway writes its last content chunk → the caller has the verification chunk | ${m((r) => r.gap)} (${max((r) => r.gap)}) |`,
  ].join("\n");
}
