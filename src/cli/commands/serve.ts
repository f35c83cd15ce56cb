import cluster, { type Worker } from "node:cluster";
import { isIPv4 } from "node:net";
import { hostname } from "node:os";
import type { Writable } from "node:stream";
import { Counter, type Registry } from "prom-client";

import { createModelBackend, gatewaysOf } from "../../models/index.js";

import { closeGracefully, createApp } from "../../server/index.js";
import { createBatchedLogStream } from "./log-stream.js";
import { readConfigFileText } from "./serve-config-file.js";
import { readServeSettings, type ServeFlags, type ServeSettings } from "./serve-settings.js";

/**
 * Runs `verified serve`: the only place that reads the environment and opens a port. With `--workers N`
 * the primary forks N workers (node:cluster) that share the port; the service keeps no state between requests.
 */
export async function runServeCommand(
  flags: ServeFlags,
  io: { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable },
): Promise<number> {
  const configFile = readConfigFileText(flags.config ?? io.env.VERIFIED_CONFIG);
  if (configFile !== undefined && "error" in configFile) {
    io.stderr.write(`verified serve: ${configFile.error}\n`);
    return 2;
  }
  const outcome = readServeSettings(io.env, flags, configFile);
  if (!outcome.ok) {
    io.stderr.write(`verified serve: ${outcome.message}\n`);
    return 2;
  }
  const settings = outcome.settings;

  if (settings.workers > 1 && cluster.isPrimary) return superviseWorkers(settings.workers, io);
  const code = await serve(settings, io);
  // A worker's IPC channel to the primary would keep it alive after the server closed.
  if (cluster.isWorker) cluster.worker?.disconnect();
  return code;
}

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

/** A JSON log line of the primary, in the shape of the workers' (pino's level numbers: 30 info, 40 warn, 50 error). */
function primaryLog(
  stdout: Writable,
  level: 30 | 40 | 50,
  message: string,
  fields: Record<string, unknown>,
): void {
  const line = { level, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg: message };
  stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * The primary of `--workers N`: forks the workers, replaces one that dies with backoff (logged, and counted in
 * every worker's `verified_worker_restarts_total`), and stops everything on a crash loop or when a worker
 * cannot start (a taken port). On SIGTERM or SIGINT it asks each worker to drain; later signals are logged
 * and ignored. Exits once every worker has, with the first failure's code.
 */
async function superviseWorkers(count: number, io: { stdout: Writable; stderr: Writable }): Promise<number> {
  const policy = createRestartPolicy();
  const started = new Set<number>();
  let restarts = 0;
  let pending = 0;
  let stopping = false;
  let code = 0;
  const timers = new Set<NodeJS.Timeout>();
  const tellRestarts = (worker: Worker) => {
    if (worker.isConnected()) worker.send({ verifiedWorkerRestarts: restarts }, undefined, () => {});
  };
  const fork = () => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      started.add(worker.id);
      tellRestarts(worker);
    });
  };
  const stopAll = () => {
    stopping = true;
    for (const timer of timers) clearTimeout(timer);
    pending = 0;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      primaryLog(io.stdout, 40, "signal ignored: already shutting down", { signal });
      return;
    }
    stopAll();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  for (let index = 0; index < count; index += 1) fork();
  await new Promise<void>((resolve) => {
    cluster.on("exit", (worker, exitCode, signal) => {
      const failure = exitCode ?? 1;
      if (stopping) {
        if (code === 0 && (exitCode ?? 1) !== 0) code = failure;
      } else if (!started.has(worker.id)) {
        // It never listened (a taken port, a bad address): a replacement would fail the same way.
        code = failure === 0 ? 1 : failure;
        stopAll();
      } else {
        const decision = policy.crashed(Date.now());
        const fields = { worker_pid: worker.process.pid, exit_code: exitCode, signal };
        if (!decision.restart) {
          io.stderr.write(
            `verified serve: workers crashed ${decision.crashes} times within ${WORKER_CRASH_WINDOW_MS / 1000} s (the last with ${signal ?? `exit code ${exitCode}`}); stopping. See the log for why.\n`,
          );
          primaryLog(io.stdout, 50, "workers crash in a loop; stopping", fields);
          code = 1;
          stopAll();
        } else {
          restarts += 1;
          pending += 1;
          primaryLog(io.stdout, 50, "worker died; replacing it", {
            ...fields,
            restart_in_ms: decision.delayMs,
          });
          const timer = setTimeout(() => {
            timers.delete(timer);
            pending -= 1;
            fork();
            for (const each of Object.values(cluster.workers ?? {})) if (each) tellRestarts(each);
          }, decision.delayMs);
          timers.add(timer);
        }
      }
      if (Object.keys(cluster.workers ?? {}).length === 0 && pending === 0) resolve();
    });
  });
  return code;
}

/** `verified_worker_restarts_total` of a worker: the primary's count of replaced workers, as it tells it. */
function countWorkerRestarts(registry: Registry): void {
  const restarts = new Counter({
    name: "verified_worker_restarts_total",
    help: "Workers the primary replaced after they died (with --workers; the same in every worker).",
    registers: [registry],
  });
  let counted = 0;
  process.on("message", (message: unknown) => {
    const total = (message as { verifiedWorkerRestarts?: unknown } | null)?.verifiedWorkerRestarts;
    if (typeof total !== "number" || total <= counted) return;
    restarts.inc(total - counted);
    counted = total;
  });
}

/** One serving process (the only one, or a worker): listens, then closes gracefully on SIGTERM or SIGINT. */
async function serve(
  settings: ServeSettings,
  io: { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable },
): Promise<number> {
  const app = await createApp({
    gateway: createModelBackend(settings),
    config: settings.config,
    logger: { level: logLevel(io), stream: createBatchedLogStream(io.stdout) },
  });
  for (const warning of startWarnings(settings)) app.log.warn(warning);
  if (cluster.isWorker) countWorkerRestarts(app.metricsRegistry);
  try {
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    io.stderr.write(
      `verified serve: cannot listen on ${settings.host}:${settings.port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 2;
  }
  const gateways = gatewaysOf(settings).gateways;
  app.log.info(
    {
      gateway: gateways.length > 0 ? "configured" : "none (model local only)",
      gateways: gateways.map((gateway) => gateway.name),
      workers: settings.workers,
    },
    "verified is serving",
  );
  const firstProcess = cluster.isPrimary || cluster.worker?.id === 1;
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : settings.port;
  // Said on stderr, not in the log only: an open service reachable by others is rarely what was meant.
  const openWarning = openServiceWarning(settings, port);
  if (openWarning !== undefined && firstProcess) io.stderr.write(`verified serve: warning: ${openWarning}\n`);
  // A person at a terminal gets one line that says where to go; log collectors get the JSON line above.
  if (isTerminal(io.stdout) && firstProcess) io.stdout.write(`${startLine(settings, port)}\n`);

  // Graceful shutdown: /readyz turns 503 at once; after the shutdown delay (load balancers stop routing), stop
  // accepting, let requests in flight finish until the shutdown deadline, then end the rest with 503
  // shutting_down (aborting their gateway calls), and exit.
  await new Promise<void>((resolve) => {
    let closing = false;
    let interrupts = 0;
    const hurry = new AbortController();
    let delay: NodeJS.Timeout | undefined;
    const close = () => {
      delay = undefined;
      closeGracefully(app, settings.shutdownTimeoutMs, undefined, hurry.signal).then(resolve, resolve);
    };
    const shutdown = (signal: NodeJS.Signals) => {
      if (signal === "SIGINT") interrupts += 1;
      if (closing) {
        // Further signals never cut a drain short (a process-group SIGTERM reaches a worker twice: directly
        // and forwarded by the primary), except a second Ctrl-C, which a person at the terminal means.
        if (signal === "SIGINT" && interrupts >= 2 && !hurry.signal.aborted) {
          app.log.warn({ signal }, "shutdown hurried: requests in flight end now");
          hurry.abort();
          if (delay !== undefined) {
            clearTimeout(delay);
            close();
          }
          return;
        }
        app.log.warn({ signal }, "signal ignored: already shutting down");
        return;
      }
      closing = true;
      app.inFlight.beginShutdown();
      app.log.info(
        {
          signal,
          shutdown_delay_ms: settings.shutdownDelayMs,
          shutdown_timeout_ms: settings.shutdownTimeoutMs,
        },
        "shutting down",
      );
      delay = setTimeout(close, settings.shutdownDelayMs);
    };
    process.on("SIGTERM", shutdown);
    process.on("SIGINT", shutdown);
  });
  return 0;
}

/**
 * VERIFIED_LOG_LEVEL, else `info` for log collectors and `warn` at a terminal, where the start line says what
 * the JSON lines would and a person does not want a JSON line per request.
 */
function logLevel(io: { env: NodeJS.ProcessEnv; stdout: Writable }): string {
  const level = io.env.VERIFIED_LOG_LEVEL?.trim();
  if (level) return level;
  return isTerminal(io.stdout) ? "warn" : "info";
}

function isTerminal(stream: Writable): boolean {
  return (stream as { isTTY?: boolean }).isTTY === true;
}

/** `http://host:port`, with an IPv6 host in brackets and the any-address shown as localhost. */
function baseURLOf(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
}

/**
 * The one line `serve` prints at a terminal: where it listens, the playground, and where models go (each
 * gateway's name and origin, never its path's query or a key), or "local model only".
 */
export function startLine(settings: ServeSettings, port: number): string {
  const url = baseURLOf(settings.host, port);
  const gateways = gatewaysOf(settings).gateways;
  const models =
    gateways.length === 0
      ? "local model only"
      : `model gateway${gateways.length === 1 ? "" : "s"} ${gateways
          .map((gateway) => `${gateway.name} (${new URL(gateway.baseURL).origin})`)
          .join(", ")} and the local model`;
  return `verified is serving at ${url} (playground at ${url}/), ${models}. Ctrl-C stops it.`;
}

/** Warnings for the start-up log: settings that will refuse or weaken gateway calls. */
export function startWarnings(settings: ServeSettings): string[] {
  const warnings = [...settings.warnings];
  const { gateways } = gatewaysOf(settings);
  // Only gateways that take the request's key are affected by a missing VERIFIED_GATEWAY_KEY.
  const usesRequestKey = gateways.some(
    (gateway) => gateway.apiKeyEnv === undefined && gateway.authHeader !== "none",
  );
  if (settings.config.apiKeys && !settings.config.gatewayKey && usesRequestKey) {
    warnings.push(
      "VERIFIED_API_KEYS is set but VERIFIED_GATEWAY_KEY is not: gateway calls will carry no key",
    );
  }
  return warnings;
}

/** Whether `host` names this machine only: `localhost`, 127.0.0.0/8, `::1` (or 127.x mapped into IPv6). */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (bare === "localhost" || bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const ipv4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return isIPv4(ipv4) && ipv4.startsWith("127.");
}

/** The one-line warning for an open service (no VERIFIED_API_KEYS) listening beyond loopback, else undefined. */
export function openServiceWarning(settings: ServeSettings, port: number): string | undefined {
  if (settings.config.apiKeys !== undefined || isLoopbackHost(settings.host)) return undefined;
  return `VERIFIED_API_KEYS is not set, so anyone who reaches ${settings.host}:${port} can use every route (gateway models with their own key, /metrics included); set VERIFIED_API_KEYS, or listen on 127.0.0.1.`;
}
