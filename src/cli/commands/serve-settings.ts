import {
  DEFAULT_EVAL_CONCURRENCY,
  DEFAULT_SHUTDOWN_DELAY_MS,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_SOURCES_BUDGET,
  MAX_EVAL_CONCURRENCY,
} from "../../limits.js";

import { defaultServerConfig, type ServerConfig } from "../../server/index.js";

/** Everything `verified serve` (and `--local` runs) needs, read from flags and environment. */
export interface ServeSettings {
  host: string;
  port: number;
  workers: number;
  gatewayURL: string | undefined;
  gatewayHeaders: Record<string, string>;
  gatewayTimeoutMs: number;
  /** On SIGTERM, requests in flight may finish for this long; then they are answered 503 `shutting_down`. */
  shutdownTimeoutMs: number;
  /** On SIGTERM, `/readyz` answers 503 and requests are still taken for this long before the drain begins. */
  shutdownDelayMs: number;
  config: ServerConfig;
}

/** Flags of `verified serve`; each overrides its environment variable. */
export interface ServeFlags {
  host?: string | undefined;
  port?: string | undefined;
  gatewayUrl?: string | undefined;
  workers?: string | undefined;
  requestTimeoutMs?: string | undefined;
  shutdownTimeoutMs?: string | undefined;
}

/** Settings, or a message naming the variable or flag that is wrong. */
export type SettingsOutcome = { ok: true; settings: ServeSettings } | { ok: false; message: string };

function integer(
  value: string | undefined,
  fallback: number,
  name: string,
  min: number,
  max: number,
): number | string {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
    return `${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}.`;
  }
  return parsed;
}

/** Reads settings from flags and environment variables (flags win); pure, for tests. */
export function readServeSettings(
  env: Readonly<Record<string, string | undefined>>,
  flags: ServeFlags = {},
): SettingsOutcome {
  const port = integer(
    flags.port ?? env.VERIFIED_PORT,
    8787,
    flags.port ? "--port" : "VERIFIED_PORT",
    0,
    65535,
  );
  const workers = integer(
    flags.workers ?? env.VERIFIED_WORKERS,
    1,
    flags.workers ? "--workers" : "VERIFIED_WORKERS",
    1,
    64,
  );
  const evalConcurrency = integer(
    env.VERIFIED_EVAL_CONCURRENCY,
    DEFAULT_EVAL_CONCURRENCY,
    "VERIFIED_EVAL_CONCURRENCY",
    1,
    MAX_EVAL_CONCURRENCY,
  );
  const sourcesBudget = integer(
    env.VERIFIED_SOURCES_BUDGET,
    DEFAULT_SOURCES_BUDGET,
    "VERIFIED_SOURCES_BUDGET",
    1,
    10_000_000,
  );
  const timeout = integer(
    env.VERIFIED_GATEWAY_TIMEOUT_MS,
    120_000,
    "VERIFIED_GATEWAY_TIMEOUT_MS",
    1,
    3_600_000,
  );
  const requestTimeout = integer(
    flags.requestTimeoutMs ?? env.VERIFIED_REQUEST_TIMEOUT_MS,
    defaultServerConfig.requestTimeoutMs,
    flags.requestTimeoutMs ? "--request-timeout-ms" : "VERIFIED_REQUEST_TIMEOUT_MS",
    1,
    3_600_000,
  );
  const shutdownTimeout = integer(
    flags.shutdownTimeoutMs ?? env.VERIFIED_SHUTDOWN_TIMEOUT_MS,
    DEFAULT_SHUTDOWN_TIMEOUT_MS,
    flags.shutdownTimeoutMs ? "--shutdown-timeout-ms" : "VERIFIED_SHUTDOWN_TIMEOUT_MS",
    0,
    3_600_000,
  );
  const shutdownDelay = integer(
    env.VERIFIED_SHUTDOWN_DELAY_MS,
    DEFAULT_SHUTDOWN_DELAY_MS,
    "VERIFIED_SHUTDOWN_DELAY_MS",
    0,
    600_000,
  );
  for (const value of [
    port,
    workers,
    evalConcurrency,
    sourcesBudget,
    timeout,
    requestTimeout,
    shutdownTimeout,
    shutdownDelay,
  ]) {
    if (typeof value === "string") return { ok: false, message: value };
  }

  let gatewayHeaders: Record<string, string> = {};
  if (env.VERIFIED_GATEWAY_HEADERS?.trim()) {
    try {
      const parsed: unknown = JSON.parse(env.VERIFIED_GATEWAY_HEADERS);
      if (
        typeof parsed !== "object" ||
        parsed === null ||
        Array.isArray(parsed) ||
        Object.values(parsed).some((v) => typeof v !== "string")
      ) {
        throw new Error("not an object of strings");
      }
      gatewayHeaders = parsed as Record<string, string>;
    } catch {
      return {
        ok: false,
        message:
          'VERIFIED_GATEWAY_HEADERS must be a JSON object of strings, e.g. {"x-portkey-provider": "openai"}.',
      };
    }
  }

  const gatewayURL = (flags.gatewayUrl ?? env.VERIFIED_GATEWAY_URL)?.trim() || undefined;
  if (gatewayURL !== undefined && !/^https?:\/\/[^\s]+$/i.test(gatewayURL)) {
    return {
      ok: false,
      message: `The gateway URL must start with http:// or https://; got ${JSON.stringify(gatewayURL)}.`,
    };
  }
  const apiKeys = env.VERIFIED_API_KEYS?.split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");

  return {
    ok: true,
    settings: {
      host: flags.host ?? env.VERIFIED_HOST ?? "127.0.0.1",
      port: port as number,
      workers: workers as number,
      gatewayURL,
      gatewayHeaders,
      gatewayTimeoutMs: timeout as number,
      shutdownTimeoutMs: shutdownTimeout as number,
      shutdownDelayMs: shutdownDelay as number,
      config: {
        apiKeys: apiKeys && apiKeys.length > 0 ? apiKeys : undefined,
        gatewayKey: env.VERIFIED_GATEWAY_KEY || undefined,
        evalConcurrency: evalConcurrency as number,
        sourcesBudget: sourcesBudget as number,
        requestTimeoutMs: requestTimeout as number,
      },
    },
  };
}
