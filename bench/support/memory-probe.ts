import type { ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { type ServiceProcess, type ServiceProcessOptions, startServiceProcess } from "./service-process.js";

// A probe loaded into a service process with `--import` (and `--expose-gc`): asked over IPC, it runs a full
// GC and answers process.memoryUsage() (`measure`), or the longest event-loop delay since the last `delay`
// (perf_hooks' monitorEventLoopDelay, 10 ms resolution), in ms. The IPC channel is unref'd so it never
// keeps the service alive.
const probe = `import { monitorEventLoopDelay } from "node:perf_hooks";
const delays = monitorEventLoopDelay({ resolution: 10 });
delays.enable();
process.on("message", (message) => {
  if (message === "measure") {
    globalThis.gc(); globalThis.gc();
    process.send(process.memoryUsage());
  } else if (message === "delay") {
    process.send({ maxDelayMs: delays.max / 1e6 });
    delays.reset();
  }
});
process.channel?.unref();`;

/** Node flags that load the probe into a service process (which needs `ipc: true`). */
export const probeFlags = ["--expose-gc", "--import", `data:text/javascript,${encodeURIComponent(probe)}`];

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once("message", (answer) => resolve(answer as T));
    child.send(message);
  });
}

/** Live memory of the probed process: its usage after a full GC. */
export function measure(child: ChildProcess): Promise<NodeJS.MemoryUsage> {
  return ask(child, "measure");
}

/** The longest event-loop delay of the probed process since the last call (ms); resets it. */
export async function maxEventLoopDelay(child: ChildProcess): Promise<number> {
  return (await ask<{ maxDelayMs: number }>(child, "delay")).maxDelayMs;
}

/** A field of /proc/<pid>/status, in kB. */
export function statusKb(pid: number, field: "VmHWM" | "VmRSS"): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((each) => each.startsWith(`${field}:`));
  return Number(line?.match(/(\d+)/)?.[1] ?? Number.NaN);
}

/** Resets the high-water mark; false where the kernel does not allow it (then the peak is since start). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `measureWith` against a service process started with the probe, once it has served `warmUp` (a small
 * create, so the code paths are loaded); stops the process afterwards.
 */
export async function withProbedService<T>(
  options: Omit<ServiceProcessOptions, "nodeFlags" | "ipc">,
  warmUp: unknown,
  measureWith: (service: ServiceProcess, pid: number) => Promise<T>,
): Promise<T> {
  const service = await startServiceProcess({ ...options, nodeFlags: probeFlags, ipc: true });
  try {
    const created = await fetch(`${service.url}/v1/verified`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
      body: JSON.stringify(warmUp),
    });
    if (created.status !== 200) throw new Error(`warm-up create answered ${created.status}`);
    await created.arrayBuffer();
    return await measureWith(service, service.child.pid as number);
  } finally {
    service.child.disconnect();
    await service.stop();
  }
}
