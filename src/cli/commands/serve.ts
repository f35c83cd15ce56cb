import cluster from "node:cluster";
import { isIPv4 } from "node:net";
import type { Writable } from "node:stream";
import { Counter, type Registry } from "prom-client";

import { createModelBackend, gatewaysOf } from "../../models/index.js";

import { closeGracefully, createApp } from "../../server/index.js";
import { createBatchedLogStream } from "./log-stream.js";
import { readConfigFileText } from "./serve-config-file.js";
import { readServeSettings, type ServeFlags, type ServeSettings } from "./serve-settings.js";
import { superviseWorkers } from "./supervise-workers.js";

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
