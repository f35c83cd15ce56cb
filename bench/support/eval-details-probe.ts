// Issue 34 item 9's eval: the eval-details bench's 20 MB request (200 cases of 100,000 characters of sources,
// each answered with about 2 MB of claims, half held) with `details: true` (or VARIANT=plain / streamed), RUNS
// evals in a row against one built service (`node dist/cli/main.js serve`), with `/healthz` probed every
// 100 ms from a process of its own (neither the service nor this one, which sends the 20 MB and reads the
// answer). Prints per eval its status, wall time and the longest `/healthz` answers beside the load average.
// With TASK_CPU=1 the service runs with task-cpu-probe.mjs, whose report of each eval (the task with the most
// CPU, the longest task) goes to stderr: on a loaded machine a long `/healthz` answer is a wait for a core
// unless a task holds about as much CPU.
//   npm run build && npx tsx bench/support/eval-details-probe.ts [RUNS=2]
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { largeAnswerOutput, largeEvalFixture } from "./create-fixtures.js";
import { startGatewayProcess } from "./gateway-process.js";

const [runsArg = "2"] = process.argv.slice(2);
const variant = process.env.VARIANT ?? "details";
const main = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const taskProbe = fileURLToPath(new URL("./task-cpu-probe.mjs", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The prober: its own process, so neither the service's loop nor this one's 20 MB request delays a probe.
const prober = `
const base = process.argv[1];
let latencies = [];
process.on("message", (message) => {
  if (message === "report") {
    process.send(latencies.sort((a, b) => b - a).slice(0, 3));
    latencies = [];
  }
});
for (;;) {
  const started = performance.now();
  try { await (await fetch(base + "/healthz")).text(); latencies.push(performance.now() - started); } catch {}
  await new Promise((resolve) => setTimeout(resolve, 100));
}`;

const fixture = largeEvalFixture("bench-details", 200, 100_000);
const answer = largeAnswerOutput(2_000_000);
const gateway = await startGatewayProcess();
await gateway.configure({ "bench-details": { content: answer.modelOutput, delayMs: 0 } });
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const taskCpu = process.env.TASK_CPU === "1";
const service = spawn(
  process.execPath,
  [...(taskCpu ? ["--import", taskProbe] : []), main, "serve", "--port", String(port)],
  {
    env: { ...process.env, VERIFIED_LOG_LEVEL: "warn", VERIFIED_GATEWAY_URL: gateway.url },
    stdio: ["ignore", "ignore", "inherit"],
  },
);
for (;;) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  await sleep(50);
}
const probe: ChildProcess = spawn(process.execPath, ["--input-type=module", "-e", prober, base], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
const probeReport = async (): Promise<number[]> => {
  const reply = once(probe, "message");
  probe.send("report");
  return (await reply)[0] as number[];
};
const taskReport = async () => {
  if (!taskCpu) return;
  service.kill("SIGUSR2");
  await sleep(200);
};
await sleep(300);
await probeReport();
await taskReport();
const options =
  variant === "plain" ? {} : variant === "streamed" ? { details: true, stream: true } : { details: true };
const body = JSON.stringify({ ...fixture.request, ...options });
try {
  for (let run = 0; run < Number(runsArg); run += 1) {
    const loadBefore = loadavg()[0] ?? 0;
    const started = performance.now();
    const response = await fetch(`${base}/v1/verified/eval`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench" },
      body,
    });
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
      bytes += chunk.byteLength;
    const wallMs = performance.now() - started;
    const longest = await probeReport();
    await taskReport();
    console.log(
      `eval (${variant}) ${run + 1}: status ${response.status}, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${wallMs.toFixed(0)} ms; ` +
        `longest /healthz ${longest.map((ms) => ms.toFixed(0)).join(", ")} ms; load ${loadBefore.toFixed(2)} → ${loadavg()[0]?.toFixed(2)}`,
    );
  }
} finally {
  probe.kill();
  service.kill("SIGTERM");
  await gateway.stop();
}
