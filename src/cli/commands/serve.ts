import cluster from "node:cluster";
import type { Writable } from "node:stream";

import { createModelBackend } from "../../models/index.js";

import { closeGracefully, createApp } from "../../server/index.js";
import { createBatchedLogStream } from "./log-stream.js";
import { readServeSettings, type ServeFlags, type ServeSettings } from "./serve-settings.js";

/**
 * Runs `verified serve`: the only place that reads the environment and opens a port. With `--workers N`
 * the primary forks N workers (node:cluster) that share the port; the service keeps no state between requests.
 */
export async function runServeCommand(
  flags: ServeFlags,
  io: { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable },
): Promise<number> {
  const outcome = readServeSettings(io.env, flags);
  if (!outcome.ok) {
    io.stderr.write(`verified serve: ${outcome.message}\n`);
    return 2;
  }
  const settings = outcome.settings;

  if (settings.workers > 1 && cluster.isPrimary) {
    for (let index = 0; index < settings.workers; index += 1) cluster.fork();
    const stop = () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    // The primary exits once every worker has, with the first failure's code (e.g. 2 when the port is taken).
    let code = 0;
    await new Promise<void>((resolve) =>
      cluster.on("exit", (_worker, exitCode) => {
        if (code === 0 && exitCode !== 0) code = exitCode ?? 1;
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve();
      }),
    );
    return code;
  }
  const code = await serve(settings, io);
  // A worker's IPC channel to the primary would keep it alive after the server closed.
  if (cluster.isWorker) cluster.worker?.disconnect();
  return code;
}

/** One serving process (the only one, or a worker): listens, then closes gracefully on SIGTERM or SIGINT. */
async function serve(
  settings: ServeSettings,
  io: { env: NodeJS.ProcessEnv; stdout: Writable; stderr: Writable },
): Promise<number> {
  const app = await createApp({
    gateway: createModelBackend(settings),
    config: settings.config,
    logger: { level: io.env.VERIFIED_LOG_LEVEL ?? "info", stream: createBatchedLogStream(io.stdout) },
  });
  if (settings.config.apiKeys && !settings.config.gatewayKey) {
    app.log.warn("VERIFIED_API_KEYS is set but VERIFIED_GATEWAY_KEY is not: gateway calls will carry no key");
  }
  try {
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    io.stderr.write(
      `verified serve: cannot listen on ${settings.host}:${settings.port}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`,
    );
    return 2;
  }
  app.log.info(
    { gateway: settings.gatewayURL ? "configured" : "none (model local only)", workers: settings.workers },
    "verified is serving",
  );

  // Graceful shutdown: /readyz turns 503 at once; after the shutdown delay (load balancers stop routing), stop
  // accepting, let requests in flight finish until the shutdown deadline, then end the rest with 503
  // shutting_down (aborting their gateway calls), and exit.
  await new Promise<void>((resolve) => {
    let closing = false;
    const shutdown = (signal: string) => {
      // Ctrl-C reaches a worker twice: from the terminal, and forwarded by the primary.
      if (closing) return;
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
      setTimeout(
        () => closeGracefully(app, settings.shutdownTimeoutMs).then(resolve, resolve),
        settings.shutdownDelayMs,
      );
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  });
  return 0;
}
