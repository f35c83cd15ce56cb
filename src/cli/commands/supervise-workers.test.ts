import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  createRestartPolicy,
  type SupervisedWorker,
  type SupervisorEdges,
  superviseWorkers,
  WORKER_CRASH_LIMIT,
  WORKER_CRASH_WINDOW_MS,
  WORKER_RESTART_BASE_MS,
} from "./supervise-workers.js";

/** Text written to a stream, kept. */
function sink(): { stream: Writable; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * Scripted edges of the primary: workers that listen or die when the test says, a clock the test sets, and
 * timers the test fires. Nothing runs by itself, so no outcome depends on how fast the machine is.
 */
function scriptedEdges() {
  let nextId = 1;
  let nowMs = 0;
  const live = new Map<number, SupervisedWorker & { listen(): void; sent: unknown[]; signals: string[] }>();
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const signalListeners = new Map<string, (signal: NodeJS.Signals) => void>();
  let onExit:
    | ((worker: SupervisedWorker, exitCode: number | null, signal: string | null) => void)
    | undefined;
  const edges: SupervisorEdges = {
    fork() {
      const id = nextId++;
      let listening: (() => void) | undefined;
      const worker = {
        id,
        sent: [] as unknown[],
        signals: [] as string[],
        process: {
          pid: 1000 + id,
          kill(signal: NodeJS.Signals) {
            worker.signals.push(signal);
          },
        },
        isConnected: () => true,
        send(message: unknown) {
          worker.sent.push(message);
        },
        once(_event: "listening", listener: () => void) {
          listening = listener;
        },
        listen() {
          listening?.();
        },
      };
      live.set(id, worker);
      return worker;
    },
    liveWorkers: () => [...live.values()],
    onWorkerExit(listener) {
      onExit = listener;
    },
    onSignal(signal, listener) {
      signalListeners.set(signal, listener);
    },
    now: () => nowMs,
    setTimer(callback, ms) {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer(timer) {
      (timer as { cleared: boolean }).cleared = true;
    },
  };
  return {
    edges,
    live,
    timers,
    setNow(ms: number) {
      nowMs = ms;
    },
    /** The newest live worker dies of `signal`. */
    kill(signal: NodeJS.Signals) {
      const worker = [...live.values()].at(-1);
      if (worker === undefined) throw new Error("no live worker");
      live.delete(worker.id);
      onExit?.(worker, null, signal);
    },
    /** `worker` exits with `exitCode` or of `signal`. */
    exit(worker: SupervisedWorker, exitCode: number | null, signal: string | null) {
      live.delete(worker.id);
      onExit?.(worker, exitCode, signal);
    },
    /** The primary receives `signal`. */
    signal(signal: NodeJS.Signals) {
      signalListeners.get(signal)?.(signal);
    },
    /** Every live worker exits with code 0 (as they do after a SIGTERM drain). */
    exitAll() {
      for (const worker of [...live.values()]) {
        live.delete(worker.id);
        onExit?.(worker, 0, null);
      }
    },
    /** Fires the pending timers that were not cleared, then starts every new worker listening. */
    fireTimers() {
      for (const timer of timers.splice(0)) if (!timer.cleared) timer.callback();
      for (const worker of live.values()) worker.listen();
    },
  };
}

const logLines = (text: string) =>
  text
    .trim()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("superviseWorkers", () => {
  it("stops with a clear error at the fifth crash within the window, however fast the crashes come", async () => {
    const scripted = scriptedEdges();
    const stdout = sink();
    const stderr = sink();
    const run = superviseWorkers(2, { stdout: stdout.stream, stderr: stderr.stream }, scripted.edges);
    let settled = false;
    void run.then(() => {
      settled = true;
    });
    for (const worker of scripted.live.values()) worker.listen();
    const waits: number[] = [];
    for (let crash = 1; crash <= WORKER_CRASH_LIMIT; crash += 1) {
      scripted.setNow(crash * 10_000); // the fifth crash comes 40 s after the first
      scripted.kill("SIGKILL");
      waits.push(...scripted.timers.filter((timer) => !timer.cleared).map((timer) => timer.ms));
      if (crash < WORKER_CRASH_LIMIT) scripted.fireTimers();
    }
    expect(waits).toEqual([1, 2, 4, 8].map((factor) => WORKER_RESTART_BASE_MS * factor));
    expect(stderr.text()).toBe(
      "verified serve: workers crashed 5 times within 60 s (the last with SIGKILL); stopping. See the log for why.\n",
    );
    // The survivor is asked to drain; the run ends when it has.
    const [survivor] = scripted.live.values();
    expect(survivor?.signals).toEqual(["SIGTERM"]);
    await Promise.resolve();
    expect(settled).toBe(false);
    scripted.exitAll();
    expect(await run).toBe(1);
    expect(logLines(stdout.text()).map((line) => [line.msg, line.restart_in_ms, line.time])).toEqual([
      ["worker died; replacing it", 250, 10_000],
      ["worker died; replacing it", 500, 20_000],
      ["worker died; replacing it", 1_000, 30_000],
      ["worker died; replacing it", 2_000, 40_000],
      ["workers crash in a loop; stopping", undefined, 50_000],
    ]);
  });

  it("keeps replacing workers whose crashes are a window apart, and tells each worker the restart count", async () => {
    const scripted = scriptedEdges();
    const stdout = sink();
    const stderr = sink();
    const run = superviseWorkers(2, { stdout: stdout.stream, stderr: stderr.stream }, scripted.edges);
    for (const worker of scripted.live.values()) worker.listen();
    for (let crash = 1; crash <= WORKER_CRASH_LIMIT * 2; crash += 1) {
      scripted.setNow(crash * WORKER_CRASH_WINDOW_MS);
      scripted.kill("SIGSEGV");
      scripted.fireTimers();
    }
    expect(stderr.text()).toBe("");
    expect(scripted.live.size).toBe(2);
    for (const worker of scripted.live.values()) {
      expect(worker.sent.at(-1)).toEqual({ verifiedWorkerRestarts: WORKER_CRASH_LIMIT * 2 });
    }
    const restarts = logLines(stdout.text()).map((line) => line.restart_in_ms);
    expect(restarts).toEqual(Array.from({ length: WORKER_CRASH_LIMIT * 2 }, () => WORKER_RESTART_BASE_MS));
    scripted.signal("SIGTERM");
    for (const worker of scripted.live.values()) expect(worker.signals).toEqual(["SIGTERM"]);
    scripted.exitAll();
    expect(await run).toBe(0);
  });

  it("stops at once when a worker exits before it listened (a taken port), with its exit code", async () => {
    const scripted = scriptedEdges();
    const stdout = sink();
    const stderr = sink();
    const run = superviseWorkers(2, { stdout: stdout.stream, stderr: stderr.stream }, scripted.edges);
    const [first, never] = scripted.live.values();
    first?.listen();
    if (never === undefined) throw new Error("two workers expected");
    scripted.exit(never, 2, null);
    // No replacement: the other worker is asked to drain.
    expect(scripted.timers).toEqual([]);
    expect(first?.signals).toEqual(["SIGTERM"]);
    scripted.exitAll();
    expect(await run).toBe(2);
    expect(stderr.text()).toBe("");
  });
});

describe("createRestartPolicy", () => {
  it("replaces crashed workers with a doubling backoff, and calls the fifth crash in a minute a loop", () => {
    const policy = createRestartPolicy();
    const decisions = Array.from({ length: WORKER_CRASH_LIMIT }, (_, index) => policy.crashed(index * 1_000));
    expect(decisions).toEqual([
      { restart: true, delayMs: WORKER_RESTART_BASE_MS },
      { restart: true, delayMs: WORKER_RESTART_BASE_MS * 2 },
      { restart: true, delayMs: WORKER_RESTART_BASE_MS * 4 },
      { restart: true, delayMs: WORKER_RESTART_BASE_MS * 8 },
      { restart: false, crashes: WORKER_CRASH_LIMIT },
    ]);
  });

  it("forgets crashes older than the window: a crash an hour apart is a first crash again", () => {
    const policy = createRestartPolicy();
    for (let index = 0; index < WORKER_CRASH_LIMIT * 3; index += 1) {
      expect(policy.crashed(index * WORKER_CRASH_WINDOW_MS)).toEqual({
        restart: true,
        delayMs: WORKER_RESTART_BASE_MS,
      });
    }
  });
});
