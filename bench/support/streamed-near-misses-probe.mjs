// Issue 34 item 9's streamed create: a model that streams CLAIMS distinct near-miss claims (`'a '×k + 'b' + i`,
// one claim an event) against a 100,000-character source, RUNS creates in a row against one built service
// (`node dist/cli/main.js serve`), with `/healthz` probed every 100 ms from this process, which also plays the
// gateway. Prints per create its status, events, wall time and longest `/healthz` answers with the load
// average. With TASK_CPU=1 the service runs with task-cpu-probe.mjs, whose report of each create (the task
// with the most CPU, the longest task) goes to stderr.
//   npm run build && node bench/support/streamed-near-misses-probe.mjs [CLAIMS=2000] [RUNS=3]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const [claimsArg = "2000", runsArg = "3"] = process.argv.slice(2);
const count = Number(claimsArg);
const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const probe = fileURLToPath(new URL("./task-cpu-probe.mjs", import.meta.url));
const source = "a ".repeat(50_000);
const claims = Array.from({ length: count }, (_, index) => ({
  claim: `c${index}`,
  quote: `${"a ".repeat(3 + (index % 10))}b${index}`,
  source: "s",
}));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const gateway = createServer((request, response) => {
  request.resume();
  request.on("end", async () => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(chunk({ content: '{"claims": [' }));
    for (const [index, claim] of claims.entries()) {
      response.write(chunk({ content: JSON.stringify(claim) + (index < count - 1 ? "," : "") }));
      if (index % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    response.write(chunk({ content: "]}" }));
    response.write(chunk({}, "stop"));
    response.end("data: [DONE]\n\n");
  });
});
gateway.listen(0, "127.0.0.1");
await once(gateway, "listening");

const port = 20_000 + Math.floor(Math.random() * 20_000);
const taskCpu = process.env.TASK_CPU === "1";
const service = spawn(
  process.execPath,
  [...(taskCpu ? ["--import", probe] : []), main, "serve", "--port", String(port)],
  {
    env: {
      ...process.env,
      VERIFIED_LOG_LEVEL: "warn",
      VERIFIED_GATEWAY_URL: `http://127.0.0.1:${gateway.address().port}/v1`,
    },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
const base = `http://127.0.0.1:${port}`;
for (;;) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  await sleep(50);
}
const report = async () => {
  if (!taskCpu) return;
  service.kill("SIGUSR2");
  await sleep(200);
};
await report();
const body = JSON.stringify({
  model: "gpt-bench",
  stream: true,
  messages: [{ role: "user", content: "q" }],
  sources: [{ id: "s", text: source }],
});
for (let run = 0; run < Number(runsArg); run += 1) {
  const latencies = [];
  let done = false;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${base}/healthz`)).text();
      latencies.push(performance.now() - started);
      await sleep(100);
    }
  })();
  const started = performance.now();
  const response = await fetch(`${base}/v1/verified`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body,
  });
  const text = await response.text();
  const wallMs = performance.now() - started;
  done = true;
  await probing;
  await report();
  const longest = latencies.sort((a, b) => b - a).slice(0, 3);
  console.log(
    `status ${response.status}, ${(text.match(/^event: /gm) ?? []).length} events, ${wallMs.toFixed(0)} ms; ` +
      `longest /healthz ${longest.map((ms) => ms.toFixed(0)).join(", ")} ms; load ${loadavg()[0]?.toFixed(2)}`,
  );
}
service.kill("SIGTERM");
gateway.closeAllConnections();
gateway.close();
