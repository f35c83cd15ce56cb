import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";

/** `verified serve` running from dist/ in its own process. */
export interface ServiceProcess {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  child: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/** Options of one service process. */
export interface ServiceProcessOptions {
  gatewayURL: string;
  /** `--workers N`; default 1. */
  workers?: number;
  /** Extra VERIFIED_* variables, e.g. VERIFIED_EVAL_CONCURRENCY. */
  env?: Record<string, string>;
  /** Flags for node before the script, e.g. `--expose-gc`. */
  nodeFlags?: string[];
  /** Prefix such as `taskset -c 1`. */
  prefix?: readonly string[];
  /** Opens an IPC channel to the service (for a probe loaded with `--import`). */
  ipc?: boolean;
}

const binary = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * Spawns `node dist/cli/main.js serve` on a free loopback port with the gateway URL, waits until /healthz
 * answers (at most 60 s: a loaded 2-core machine can take seconds to start it) and returns it. Its log lines
 * (the default `info` level, one per request) go to /dev/null, so logging is paid for as in production.
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`npm run build\` first.`);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("VERIFIED_") && name !== "NODE_OPTIONS") env[name] = value;
  }
  Object.assign(env, { VERIFIED_GATEWAY_URL: options.gatewayURL, ...options.env });
  const command = [
    ...(options.prefix ?? []),
    process.execPath,
    ...(options.nodeFlags ?? []),
    binary,
    "serve",
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--workers",
    String(options.workers ?? 1),
  ];
  const child = spawn(command[0] as string, command.slice(1), {
    env,
    stdio: ["ignore", "ignore", "pipe", ...(options.ipc ? (["ipc"] as const) : [])],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verified serve exited with ${child.exitCode}: ${stderr}`);
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`verified serve did not answer /healthz within 60 s: ${stderr}`);
    }
    await delay(100);
  }
  return { url, child, stop };
}
