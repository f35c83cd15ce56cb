import { spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { binaryPath } from "./run-binary.js";

/** A spawned `verified serve`: its output so far, its exit, and waits bounded by a deadline. */
export interface ServeProcess {
  child: ReturnType<typeof spawn>;
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  /** JSON log lines of stdout whose `msg` is `message`. */
  logLines(message: string): Record<string, unknown>[];
  /** Kills the process group with SIGKILL if it still runs (for `finally`). */
  kill(): void;
}

/**
 * Starts `verified serve` with arguments and environment (over the test's, gateway unset, info logs), in its
 * own process group so a test can signal it and its workers the way a container runtime or a terminal does.
 */
export function startServe(args: readonly string[], env: Record<string, string> = {}): ServeProcess {
  const child = spawn(process.execPath, [binaryPath, "serve", ...args], {
    env: { ...process.env, VERIFIED_GATEWAY_URL: "", VERIFIED_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    logLines: (message) =>
      stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === message),
    kill() {
      if (ended || child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    },
  };
}

/** Resolves once `condition` holds; rejects after `timeoutMs` (a bound for a loaded machine, not a measurement). */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await delay(25);
  }
}
