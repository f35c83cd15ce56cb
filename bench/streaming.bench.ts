// Streaming create against the plain one: a gateway streams 5 equal claims at a fixed token rate, and the
// caller measures when the first verified claim and the result arrive, with and without `"stream": true`.
// ModelBackend, service and caller share this process (and its clock), so the service's added latency per event
// is measured directly: from the gateway writing the chunk that closes a claim's object to the caller
// reading that claim's event. Sharing one event loop makes that figure an upper bound.

import { createServer, request as httpRequest, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { createParser } from "eventsource-parser";
import { createModelBackend } from "../src/models/create-model.js";
import { createApp } from "../src/server/app.js";
import { defaultServerConfig } from "../src/server/config.js";
import { formatMs, median } from "./support/statistics.js";

const CLAIMS = 5;
const TOKENS_PER_SECOND = 200;
const CHARS_PER_TOKEN = 4;
const ROUNDS = 7;

const sentences = Array.from(
  { length: CLAIMS },
  (_, index) =>
    `Fact ${index + 1}: the northern warehouse shipped ${1_000 + index * 111} orders in week ${index + 10}.`,
);
const source = { id: "log", text: sentences.join(" ") };
const claims = sentences.map((sentence) => ({ claim: sentence, quote: sentence, source: "log" }));
const content = JSON.stringify({ claims });
/** Offset just past each claim object in the content. */
const claimEnds = claims.map(
  (claim) => content.indexOf(JSON.stringify(claim)) + JSON.stringify(claim).length,
);
const request = {
  model: "bench-model",
  messages: [{ role: "user", content: "What shipped?" }],
  sources: [source],
};

/** When the gateway wrote the chunk that closed each claim, for the current call. */
let closedAt: number[] = [];

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: object): string {
  const body = {
    choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Writes `content` token by token at the fixed rate, as a model would; or the whole completion at the end. */
function answer(response: ServerResponse, stream: boolean): void {
  const usage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };
  const started = performance.now();
  const tokens = Math.ceil(content.length / CHARS_PER_TOKEN);
  const duration = (tokens * 1000) / TOKENS_PER_SECOND;
  closedAt = [];
  if (!stream) {
    setTimeout(() => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
          usage,
        }),
      );
    }, duration);
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.flushHeaders();
  let token = 0;
  const step = () => {
    const end = Math.min((token + 1) * CHARS_PER_TOKEN, content.length);
    response.write(chunk({ content: content.slice(token * CHARS_PER_TOKEN, end) }));
    for (const [index, claimEnd] of claimEnds.entries()) {
      if (closedAt[index] === undefined && claimEnd <= end) closedAt[index] = performance.now();
    }
    token += 1;
    if (token >= tokens) {
      response.end(`${chunk({}, "stop")}${chunk({}, null, usage)}data: [DONE]\n\n`);
      return;
    }
    // Scheduled against the start, so timer drift does not slow the model down.
    setTimeout(step, Math.max(0, started + ((token + 1) * 1000) / TOKENS_PER_SECOND - performance.now()));
  };
  setTimeout(step, 1000 / TOKENS_PER_SECOND);
}

/** POSTs a create and times what arrives: the first claim event, every claim event, and the end. */
function create(
  url: string,
  stream: boolean,
): Promise<{ start: number; claims: number[]; end: number; body: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const claimTimes: number[] = [];
    let text = "";
    const parser = createParser({
      onEvent: (event) => {
        if (event.event === "claim") claimTimes.push(performance.now());
      },
    });
    const outgoing = httpRequest(`${url}/v1/verified`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
    });
    outgoing.on("error", reject);
    outgoing.on("response", (response) => {
      response.setEncoding("utf8");
      response.on("data", (piece: string) => {
        text += piece;
        if (stream) parser.feed(piece);
      });
      response.on("end", () => resolve({ start, claims: claimTimes, end: performance.now(), body: text }));
    });
    outgoing.end(JSON.stringify({ ...request, ...(stream ? { stream: true } : {}) }));
  });
}

/** Prints the medians over rounds: time to first claim and to done, streamed and not, and the added latency. */
export default async function run(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  const gateway = createServer((incoming, response) => {
    let body = "";
    incoming.on("data", (piece) => {
      body += piece;
    });
    incoming.on("end", () => answer(response, (JSON.parse(body) as { stream?: boolean }).stream === true));
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  const gatewayURL = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`;
  const app = await createApp({
    gateway: createModelBackend({ gatewayURL, gatewayHeaders: {}, gatewayTimeoutMs: 30_000 }),
    config: defaultServerConfig,
  });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });

  const plainDone: number[] = [];
  const streamFirst: number[] = [];
  const streamDone: number[] = [];
  const added: number[] = [];
  const firstAdded: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round += 1) {
    const plain = await create(url, false);
    const streamed = await create(url, true);
    // Results are checked, not just timed: both answers carry the 5 claims, and done equals the plain result.
    const plainResult = JSON.parse(plain.body) as { citations: unknown[]; id: string };
    const done = streamed.body.slice(streamed.body.lastIndexOf("data: ") + 6).trim();
    const streamedResult = JSON.parse(done) as { citations: unknown[]; id: string };
    if (plainResult.citations.length !== CLAIMS || streamed.claims.length !== CLAIMS)
      throw new Error("a run did not ground all 5 claims");
    if (JSON.stringify({ ...streamedResult, id: "" }) !== JSON.stringify({ ...plainResult, id: "" }))
      throw new Error("done differs from the plain result");
    if (round === 0) continue; // warm-up
    plainDone.push(plain.end - plain.start);
    streamFirst.push((streamed.claims[0] as number) - streamed.start);
    streamDone.push(streamed.end - streamed.start);
    firstAdded.push((streamed.claims[0] as number) - (closedAt[0] as number));
    for (const [index, time] of streamed.claims.entries()) added.push(time - (closedAt[index] as number));
  }
  await app.close();
  await new Promise<void>((resolve) => gateway.close(() => resolve()));

  const first = median(streamFirst);
  const plain = median(plainDone);
  console.log(
    `${CLAIMS} equal claims, ${content.length} characters of model output at ${TOKENS_PER_SECOND} tokens/s (${CHARS_PER_TOKEN} characters a token); median of ${ROUNDS} rounds; load average ${loadBefore.toFixed(2)} before the run\n`,
  );
  console.log("| | median |");
  console.log("|---|---|");
  console.log(`| plain create: time to the result | ${formatMs(plain)} |`);
  console.log(
    `| streamed: time to the first verified claim | ${formatMs(first)} (${((first / plain) * 100).toFixed(0)}% of plain) |`,
  );
  console.log(`| streamed: time to done | ${formatMs(median(streamDone))} |`);
  console.log(
    `| first claim: model closed its object → caller has the event | ${formatMs(median(firstAdded))} |`,
  );
  console.log(
    `| every claim event: model closed → caller has it (median, max) | ${formatMs(median(added))}, ${formatMs(Math.max(...added))} |`,
  );
}
