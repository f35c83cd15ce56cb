// Loaded into a service with `--import`, it times every top-level callback the event loop runs (a timer, an
// immediate, an I/O callback, with the promise jobs it sets off): wall time, and the process's CPU time over
// it. On a loaded machine a callback's wall time counts the time the process waited for a core, so a 40 ms
// block can show as 400 ms; its CPU time (all threads of the process, so collection helpers count too) does
// not. On SIGUSR2 it writes to stderr the callback that used the most CPU and the one that took the longest
// wall time since the last report, with where each was scheduled, and starts again. For diagnosis only:
// the hooks slow every callback down.
//   node --import ./bench/support/task-cpu-probe.mjs dist/cli/main.js serve   then   kill -USR2 <pid>
import { createHook } from "node:async_hooks";
import { writeSync } from "node:fs";

const origins = new Map();
let depth = 0;
let startedMs = 0;
let startedCpu = process.cpuUsage();
let current = 0;
let mostCpu = { cpuMs: 0, wallMs: 0, origin: "" };
let longest = { cpuMs: 0, wallMs: 0, origin: "" };

/** The callback's resource type and the first frames of the stack that scheduled it. */
function originOf(type) {
  const frames = (new Error().stack ?? "").split("\n").slice(3, 7);
  return `${type}: ${frames.map((frame) => frame.trim().replace(/^at /, "")).join(" < ")}`;
}

createHook({
  init(asyncId, type) {
    if (type !== "PROMISE") origins.set(asyncId, originOf(type));
  },
  before(asyncId) {
    depth += 1;
    if (depth > 1) return;
    startedMs = performance.now();
    startedCpu = process.cpuUsage();
    current = asyncId;
  },
  after() {
    depth -= 1;
    if (depth > 0) return;
    const used = process.cpuUsage(startedCpu);
    const task = {
      cpuMs: (used.user + used.system) / 1000,
      wallMs: performance.now() - startedMs,
      origin: origins.get(current) ?? "(scheduled before the probe, or an I/O resource it does not see)",
    };
    if (task.cpuMs > mostCpu.cpuMs) mostCpu = task;
    if (task.wallMs > longest.wallMs) longest = task;
  },
  destroy(asyncId) {
    origins.delete(asyncId);
  },
}).enable();

process.on("SIGUSR2", () => {
  const line = (label, task) =>
    `${label}: ${task.cpuMs.toFixed(0)} ms CPU, ${task.wallMs.toFixed(0)} ms wall, ${task.origin.slice(0, 300)}\n`;
  writeSync(2, line("task-cpu-probe most CPU", mostCpu) + line("task-cpu-probe longest", longest));
  mostCpu = { cpuMs: 0, wallMs: 0, origin: "" };
  longest = { cpuMs: 0, wallMs: 0, origin: "" };
});
