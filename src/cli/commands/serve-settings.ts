import {
  DEFAULT_EVAL_CONCURRENCY,
  DEFAULT_SHUTDOWN_DELAY_MS,
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  DEFAULT_SOURCES_BUDGET,
  MAX_EVAL_CONCURRENCY,
} from "../../limits.js";

import {
  firstInvalidHeader,
  type GatewaySettings,
  listModelsOf,
  type ModelRoute,
  maskURLCredentials,
} from "../../models/index.js";
import { defaultServerConfig, type ServerConfig } from "../../server/index.js";
import { parseServeConfigFile } from "./serve-config-file.js";

/** A model call's deadline, retries and backoff included, unless VERIFIED_GATEWAY_TIMEOUT_MS says otherwise. */
const DEFAULT_GATEWAY_TIMEOUT_MS = 120_000;

/** Everything `verified serve` (and `--local` runs) needs, read from flags and environment. */
export interface ServeSettings {
  host: string;
  port: number;
  workers: number;
  gatewayURL: string | undefined;
  gatewayHeaders: Record<string, string>;
  gatewayTimeoutMs: number;
  /** Named gateways and routes from the config file; undefined for the one gateway of the variables. */
  gateways?: GatewaySettings[] | undefined;
  routes?: ModelRoute[] | undefined;
  /** Notes for the start-up log (a key variable the config file names is unset…). */
  warnings: string[];
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
  config?: string | undefined;
  workers?: string | undefined;
  requestTimeoutMs?: string | undefined;
  shutdownTimeoutMs?: string | undefined;
}

/** Settings only the environment sets (no flag), for `serve --help`: name and what it does. */
export const environmentOnlySettings: readonly (readonly [string, string])[] = [
  [
    "VERIFIED_API_KEYS",
    "comma-separated keys callers must send; unset, the service is open (set but empty: refused)",
  ],
  ["VERIFIED_GATEWAY_KEY", "key sent to gateways when VERIFIED_API_KEYS is set (and no api_key_env)"],
  ["VERIFIED_GATEWAY_HEADERS", 'JSON object of extra gateway headers, e.g. {"x-portkey-provider":"openai"}'],
  [
    "VERIFIED_GATEWAY_TIMEOUT_MS",
    `deadline of one model call, retries included (default ${DEFAULT_GATEWAY_TIMEOUT_MS})`,
  ],
  ["VERIFIED_EVAL_CONCURRENCY", `eval cases run at once (default ${DEFAULT_EVAL_CONCURRENCY})`],
  [
    "VERIFIED_SOURCES_BUDGET",
    `characters of source text per request or eval case (default ${DEFAULT_SOURCES_BUDGET})`,
  ],
  [
    "VERIFIED_SHUTDOWN_DELAY_MS",
    `on SIGTERM, keep serving with /readyz at 503 this long before the drain (default ${DEFAULT_SHUTDOWN_DELAY_MS})`,
  ],
  [
    "VERIFIED_LOG_LEVEL",
    "fatal, error, warn, info, debug, trace or silent (default info; warn at a terminal)",
  ],
];

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

/** The config file's name (for messages) and text, read by the caller. */
export interface ConfigFileText {
  path: string;
  text: string;
}

/** Reads settings from flags, environment variables (flags win) and the config file's text; pure, for tests. */
export function readServeSettings(
  env: Readonly<Record<string, string | undefined>>,
  flags: ServeFlags = {},
  configFile?: ConfigFileText,
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
    DEFAULT_GATEWAY_TIMEOUT_MS,
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
    const invalidHeader = firstInvalidHeader(gatewayHeaders);
    if (invalidHeader !== undefined) {
      // Named, never quoted: a header's value is often a key.
      return {
        ok: false,
        message: `VERIFIED_GATEWAY_HEADERS: header ${JSON.stringify(invalidHeader)} is not a valid header (a name of token characters, a value without control characters such as line breaks); its value is not shown.`,
      };
    }
  }

  const gatewayURL = (flags.gatewayUrl ?? env.VERIFIED_GATEWAY_URL)?.trim() || undefined;
  if (gatewayURL !== undefined && !/^https?:\/\/[^\s]+$/i.test(gatewayURL)) {
    return {
      ok: false,
      message: `The gateway URL must start with http:// or https://; got ${JSON.stringify(maskURLCredentials(gatewayURL))}.`,
    };
  }
  let gateways: GatewaySettings[] | undefined;
  let routes: ModelRoute[] | undefined;
  const warnings: string[] = [];
  if (configFile !== undefined) {
    if (gatewayURL !== undefined || env.VERIFIED_GATEWAY_HEADERS?.trim()) {
      return {
        ok: false,
        message: `${flags.gatewayUrl ? "--gateway-url" : env.VERIFIED_GATEWAY_URL?.trim() ? "VERIFIED_GATEWAY_URL" : "VERIFIED_GATEWAY_HEADERS"} and a config file are both given; declare every gateway in ${configFile.path}.`,
      };
    }
    const parsed = parseServeConfigFile(configFile.text, configFile.path, env, {
      timeoutMs: timeout as number,
    });
    if (!parsed.ok) return { ok: false, message: parsed.message };
    gateways = parsed.gateways;
    routes = parsed.routes;
    warnings.push(...parsed.warnings);
  }
  const apiKeys = env.VERIFIED_API_KEYS?.split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  // Set but empty (`""`, spaces, `,`) is a mistake, not a wish for an open service: refuse rather than open.
  if (apiKeys !== undefined && apiKeys.length === 0) {
    return {
      ok: false,
      message:
        "VERIFIED_API_KEYS is set but holds no key; give it comma-separated keys, or unset it to run an open service.",
    };
  }

  const backend = { gatewayURL, gatewayHeaders, gatewayTimeoutMs: timeout as number, gateways, routes };
  return {
    ok: true,
    settings: {
      host: flags.host ?? env.VERIFIED_HOST ?? "127.0.0.1",
      port: port as number,
      workers: workers as number,
      ...backend,
      warnings,
      shutdownTimeoutMs: shutdownTimeout as number,
      shutdownDelayMs: shutdownDelay as number,
      config: {
        models: listModelsOf(backend),
        apiKeys,
        gatewayKey: env.VERIFIED_GATEWAY_KEY || undefined,
        evalConcurrency: evalConcurrency as number,
        sourcesBudget: sourcesBudget as number,
        requestTimeoutMs: requestTimeout as number,
      },
    },
  };
}
