// A streamed create of claims (`POST /v1/verified`, `"stream": true`) through the real route in process: the
// model's reply holds COUNT short claims (every fifth unsupported) against a short source, delivered whole when
// the call returns (MODE=whole: a gateway that does not stream, so every event is sent at the end), in one
// piece of its stream (MODE=piece), a claim a piece in one loop as the local model streams (MODE=claims), or
// whole with its "claims" key written twice (MODE=twice: a reply the claims reader reads again whole to compare
// the two arrays). The answer is read as a stream and dropped. Prints the status, the process's CPU time for the
// request, the longest gap between two turns of a 1 ms timer (the longest block) and the bytes of the stream,
// beside the load average. With TASK_CPU=1 and `--import ./bench/support/task-cpu-probe.mjs` (`npx tsx --import
// ./bench/support/task-cpu-probe.mjs …`), the probe's report of the request (the task with the most CPU, the
// longest task) goes to stderr after it. Repeat it alternately on two commits to compare them.
//   npx tsx bench/support/streamed-claims-probe.ts [COUNT=20000] [MODE=whole|piece|claims|twice]
import { loadavg } from "node:os";
import { createApp } from "../../src/server/app.js";
import { defaultServerConfig } from "../../src/server/config.js";

const [countArg = "20000", mode = "whole"] = process.argv.slice(2);
const count = Number(countArg);
const source = {
  id: "report",
  text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million.",
};
const claims = Array.from({ length: count }, (_, index) => ({
  claim: `Claim ${index} about the founding.`,
  quote: index % 5 === 4 ? `absent ${index}` : "Northwind was founded in 2016 in Lyon.",
  source: "report",
}));
const array = JSON.stringify(claims);
const content = mode === "twice" ? `{"claims":${array},"claims":${array}}` : JSON.stringify({ claims });
const claimPieces = [
  '{"claims":[',
  ...claims.flatMap((claim, index) => (index === 0 ? [JSON.stringify(claim)] : [",", JSON.stringify(claim)])),
  "]}",
];
const app = await createApp({
  config: defaultServerConfig,
  gateway: {
    async generate(request) {
      request.stream?.onOpen();
      if (mode === "piece") request.stream?.onText(content);
      if (mode === "claims") for (const piece of claimPieces) request.stream?.onText(piece);
      return { content, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } };
    },
  },
});
const body = JSON.stringify({
  model: "bench",
  messages: [{ role: "user", content: "When was Northwind founded?" }],
  sources: [source],
  stream: true,
});
let last = performance.now();
let longest = 0;
const timer = setInterval(() => {
  const now = performance.now();
  longest = Math.max(longest, now - last);
  last = now;
}, 1);
const taskReport = (): void => {
  if (process.env.TASK_CPU === "1") process.kill(process.pid, "SIGUSR2");
};
taskReport();
const cpu = process.cpuUsage();
const response = await app.inject({
  method: "POST",
  url: "/v1/verified",
  headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
  payload: body,
  payloadAsStream: true,
});
let bytes = 0;
for await (const chunk of response.stream() as AsyncIterable<Buffer>) bytes += chunk.length;
const used = process.cpuUsage(cpu);
clearInterval(timer);
taskReport();
console.log(
  `${count} claims, ${mode}: status ${response.statusCode}, CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, longest block ${longest.toFixed(1)} ms, ${bytes} bytes; load ${loadavg()[0]?.toFixed(2)}`,
);
await app.close();
