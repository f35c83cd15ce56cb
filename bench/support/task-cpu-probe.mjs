// Loaded into a service with `--import`, it times every task of the event loop: a macrotask's callback (a
// timer, an immediate, an I/O callback) together with the process.nextTick callbacks and promise jobs that
// run after it before the loop moves on, since nothing else runs in between. Each task gets its wall time and
// the process's CPU time over it. On a loaded machine a task's wall time counts the time the process waited
// for a core, so a 40 ms task can show as 400 ms; its CPU time (all threads of the process, so collection
// helpers count too) does not. On SIGUSR2 it writes to stderr the task that used the most CPU and the one
// that took the longest since the last report, with the kind of callback that began each, and starts again.
// For diagnosis only: the hooks slow every callback down.
//   node --import ./bench/support/task-cpu-probe.mjs dist/cli/main.js serve   then   kill -USR2 <pid>
import { createHook, executionAsyncResource } from "node:async_hooks";
import { writeSync } from "node:fs";

// Callbacks that run after a macrotask, before the event loop moves on: they belong to its task.
const CONTINUATIONS = new Set(["Promise", "Object", "TickObject", "AsyncResource"]);

let depth = 0;
let task = { startedMs: 0, endedMs: 0, cpuMs: 0, kind: "start-up" };
let pieceStartedCpu = process.cpuUsage();
let mostCpu = { cpuMs: 0, wallMs: 0, kind: "" };
let longest = { cpuMs: 0, wallMs: 0, kind: "" };

/** Closes the current task: keeps it if it used the most CPU or took the longest so far. */
function closeTask() {
  const finished = { cpuMs: task.cpuMs, wallMs: task.endedMs - task.startedMs, kind: task.kind };
  if (finished.cpuMs > mostCpu.cpuMs) mostCpu = finished;
  if (finished.wallMs > longest.wallMs) longest = finished;
}

createHook({
  before() {
    depth += 1;
    if (depth > 1) return;
    const kind = executionAsyncResource()?.constructor?.name ?? "unknown";
    if (!CONTINUATIONS.has(kind)) {
      closeTask();
      const now = performance.now();
      task = { startedMs: now, endedMs: now, cpuMs: 0, kind };
    }
    pieceStartedCpu = process.cpuUsage();
  },
  after() {
    depth -= 1;
    if (depth > 0) return;
    const used = process.cpuUsage(pieceStartedCpu);
    task.cpuMs += (used.user + used.system) / 1000;
    task.endedMs = performance.now();
  },
}).enable();

process.on("SIGUSR2", () => {
  const line = (label, each) =>
    `${label}: ${each.cpuMs.toFixed(0)} ms CPU, ${each.wallMs.toFixed(0)} ms wall, begun by ${each.kind}\n`;
  writeSync(2, line("task-cpu-probe most CPU", mostCpu) + line("task-cpu-probe longest", longest));
  mostCpu = { cpuMs: 0, wallMs: 0, kind: "" };
  longest = { cpuMs: 0, wallMs: 0, kind: "" };
});
