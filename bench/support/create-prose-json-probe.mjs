// A create (JSON, `answer_format: "text"`) whose model answers about 3.9 Mi characters of prose in one
// completion (KIND `cited`: every sentence held, a 9 MB result; `dropped`: none held), three in a row against
// one built service (`node dist/cli/main.js serve`), with `/healthz` probed every 100 ms from a process of its
// own. Prints per create its status, sizes, wall time and the longest `/healthz` answers beside the load
// average; with TASK_CPU=1 the service runs with task-cpu-probe.mjs, whose report of each create (the task
// with the most CPU, the longest task) goes to stderr.
//   npm run build && node bench/support/create-prose-json-probe.mjs [KIND=cited]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";

const [kind = "cited"] = process.argv.slice(2);
const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const taskProbe = fileURLToPath(new URL("./task-cpu-probe.mjs", import.meta.url));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const source = "Alpha beta gamma delta epsilon zeta eta theta. ".repeat(1_500);
// Sentences of about 420 characters, so 3.9 Mi characters stay under the claim cap.
const unit =
  kind === "cited"
    ? `${"Alpha beta gamma delta epsilon zeta eta theta ".repeat(9)}[s]. `
    : `${"Omega psi chi phi upsilon tau sigma rho ".repeat(11)}[s]. `;
const answer = unit.repeat(Math.floor((3.95 * 1024 * 1024) / unit.length));
const completion = JSON.stringify({
  id: "x",
  object: "chat.completion",
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
const gateway = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(completion);
  });
});
gateway.listen(0, "127.0.0.1");
await once(gateway, "listening");
const port = 20_000 + Math.floor(Math.random() * 20_000);
const taskCpu = process.env.TASK_CPU === "1";
const service = spawn(
  process.execPath,
  [...(taskCpu ? ["--import", taskProbe] : []), main, "serve", "--port", String(port)],
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
// The prober: its own process, so neither the service's loop nor this one's delays a probe.
const prober = `const base = process.argv[1];
let latencies = [];
process.on("message", () => { process.send(latencies.sort((a, b) => b - a).slice(0, 3)); latencies = []; });
for (;;) {
  const started = performance.now();
  try { await (await fetch(base + "/healthz")).text(); latencies.push(performance.now() - started); } catch {}
  await new Promise((resolve) => setTimeout(resolve, 100));
}`;
const probe = spawn(process.execPath, ["--input-type=module", "-e", prober, base], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const probeReport = async () => {
  const reply = once(probe, "message");
  probe.send("report");
  return (await reply)[0];
};
const taskReport = async () => {
  if (!taskCpu) return;
  service.kill("SIGUSR2");
  await sleep(200);
};
await sleep(300);
await probeReport();
await taskReport();
const body = JSON.stringify({
  model: "gpt-bench",
  answer_format: "text",
  messages: [{ role: "user", content: "q" }],
  sources: [{ id: "s", text: source }],
});
try {
  for (let run = 0; run < 3; run += 1) {
    const started = performance.now();
    const response = await fetch(`${base}/v1/verified`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body,
    });
    const text = await response.text();
    const wallMs = performance.now() - started;
    const longest = await probeReport();
    await taskReport();
    console.log(
      `${kind} ${run + 1}: status ${response.status}, answer ${(answer.length / 1024 / 1024).toFixed(1)} Mi characters, ` +
        `result ${(text.length / 1024 / 1024).toFixed(1)} MB, ${wallMs.toFixed(0)} ms; longest /healthz ` +
        `${longest.map((ms) => ms.toFixed(0)).join(", ")} ms; load ${loadavg()[0]?.toFixed(2)}`,
    );
  }
} finally {
  probe.kill();
  service.kill("SIGTERM");
  gateway.close();
}
