import cluster from "node:cluster";
import { hostname } from "node:os";
import type { Writable } from "node:stream";

/** The first wait before a crashed worker is replaced; each crash in the window doubles it. */
export const WORKER_RESTART_BASE_MS = 250;
/** The longest wait before a crashed worker is replaced. */
export const WORKER_RESTART_MAX_MS = 10_000;
/** This many worker crashes within WORKER_CRASH_WINDOW_MS is a crash loop: serve stops instead of retrying. */
export const WORKER_CRASH_LIMIT = 5;
/** The window in which crashes are counted. */
export const WORKER_CRASH_WINDOW_MS = 60_000;

/** What to do about one more crashed worker: replace it after `delayMs`, or give up (a crash loop). */
export type RestartDecision = { restart: true; delayMs: number } | { restart: false; crashes: number };

/**
 * Decides, crash by crash, when the primary replaces a worker: backoff doubling from WORKER_RESTART_BASE_MS
 * with the crashes of the last WORKER_CRASH_WINDOW_MS, and a crash loop at WORKER_CRASH_LIMIT of them. Pure:
 * the caller passes the time, so tests need no clock.
 */
export function createRestartPolicy(): { crashed(nowMs: number): RestartDecision } {
  const recent: number[] = [];
  return {
    crashed(nowMs) {
      while (recent.length > 0 && nowMs - (recent[0] ?? nowMs) >= WORKER_CRASH_WINDOW_MS) recent.shift();
      recent.push(nowMs);
      if (recent.length >= WORKER_CRASH_LIMIT) return { restart: false, crashes: recent.length };
      const delayMs = Math.min(WORKER_RESTART_MAX_MS, WORKER_RESTART_BASE_MS * 2 ** (recent.length - 1));
      return { restart: true, delayMs };
    },
  };
}

/** The part of a node:cluster worker the primary uses. */
export interface SupervisedWorker {
  readonly id: number;
  readonly process: { readonly pid?: number | undefined; kill(signal: NodeJS.Signals): unknown };
  isConnected(): boolean;
  send(message: unknown, handle: undefined, callback: (error: Error | null) => void): unknown;
  once(event: "listening", listener: () => void): unknown;
}

/**
 * The edges of the primary, injected so a test can drive crashes at a time it chooses: the workers
 * (node:cluster), the clock and timers, and the signals it listens to (the process).
 */
export interface SupervisorEdges {
  fork(): SupervisedWorker;
  liveWorkers(): SupervisedWorker[];
  onWorkerExit(
    listener: (worker: SupervisedWorker, exitCode: number | null, signal: string | null) => void,
  ): void;
  onSignal(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): void;
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

/** The real edges: node:cluster, `Date.now`, `setTimeout` and the process's signals. */
export const nodeSupervisorEdges: SupervisorEdges = {
  fork: () => cluster.fork(),
  liveWorkers: () => Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined),
  onWorkerExit: (listener) => {
    cluster.on("exit", listener);
  },
  onSignal: (signal, listener) => {
    process.on(signal, listener);
  },
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** A JSON log line of the primary, in the shape of the workers' (pino's level numbers: 30 info, 40 warn, 50 error). */
function primaryLog(
  stdout: Writable,
  timeMs: number,
  level: 30 | 40 | 50,
  message: string,
  fields: Record<string, unknown>,
): void {
  const line = { level, time: timeMs, pid: process.pid, hostname: hostname(), ...fields, msg: message };
  stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * The primary of `--workers N`: forks the workers, replaces one that dies with backoff (logged, and counted in
 * every worker's `verified_worker_restarts_total`), and stops everything on a crash loop or when a worker
 * cannot start (a taken port). On SIGTERM or SIGINT it asks each worker to drain; later signals are logged
 * and ignored. Resolves once every worker has exited, with the first failure's code.
 */
export async function superviseWorkers(
  count: number,
  io: { stdout: Writable; stderr: Writable },
  edges: SupervisorEdges = nodeSupervisorEdges,
): Promise<number> {
  const policy = createRestartPolicy();
  const started = new Set<number>();
  let restarts = 0;
  let pending = 0;
  let stopping = false;
  let code = 0;
  const timers = new Set<unknown>();
  const log = (level: 30 | 40 | 50, message: string, fields: Record<string, unknown>) =>
    primaryLog(io.stdout, edges.now(), level, message, fields);
  const tellRestarts = (worker: SupervisedWorker) => {
    if (worker.isConnected()) worker.send({ verifiedWorkerRestarts: restarts }, undefined, () => {});
  };
  const fork = () => {
    const worker = edges.fork();
    worker.once("listening", () => {
      started.add(worker.id);
      tellRestarts(worker);
    });
  };
  const stopAll = () => {
    stopping = true;
    for (const timer of timers) edges.clearTimer(timer);
    timers.clear();
    pending = 0;
    for (const worker of edges.liveWorkers()) worker.process.kill("SIGTERM");
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log(40, "signal ignored: already shutting down", { signal });
      return;
    }
    stopAll();
  };
  edges.onSignal("SIGTERM", onSignal);
  edges.onSignal("SIGINT", onSignal);
  for (let index = 0; index < count; index += 1) fork();
  await new Promise<void>((resolve) => {
    edges.onWorkerExit((worker, exitCode, signal) => {
      const failure = exitCode ?? 1;
      if (stopping) {
        if (code === 0 && (exitCode ?? 1) !== 0) code = failure;
      } else if (!started.has(worker.id)) {
        // It never listened (a taken port, a bad address): a replacement would fail the same way.
        code = failure === 0 ? 1 : failure;
        stopAll();
      } else {
        const decision = policy.crashed(edges.now());
        const fields = { worker_pid: worker.process.pid, exit_code: exitCode, signal };
        if (!decision.restart) {
          io.stderr.write(
            `verified serve: workers crashed ${decision.crashes} times within ${WORKER_CRASH_WINDOW_MS / 1000} s (the last with ${signal ?? `exit code ${exitCode}`}); stopping. See the log for why.\n`,
          );
          log(50, "workers crash in a loop; stopping", fields);
          code = 1;
          stopAll();
        } else {
          restarts += 1;
          pending += 1;
          log(50, "worker died; replacing it", { ...fields, restart_in_ms: decision.delayMs });
          const timer = edges.setTimer(() => {
            timers.delete(timer);
            pending -= 1;
            fork();
            for (const each of edges.liveWorkers()) tellRestarts(each);
          }, decision.delayMs);
          timers.add(timer);
        }
      }
      if (edges.liveWorkers().length === 0 && pending === 0) resolve();
    });
  });
  return code;
}
