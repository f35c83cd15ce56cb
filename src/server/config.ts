import { DEFAULT_EVAL_CONCURRENCY, DEFAULT_SOURCES_BUDGET } from "../limits.js";
import type { Gateway } from "../models/index.js";

/** Everything the app needs to know about its deployment; built from flags and environment by `serve`. */
export interface ServerConfig {
  /** When set, callers must present one of these keys and the gateway is called with `gatewayKey`. */
  apiKeys: string[] | undefined;
  gatewayKey: string | undefined;
  evalConcurrency: number;
  sourcesBudget: number;
}

/** Defaults as documented in the README's configuration table. */
export const defaultServerConfig: ServerConfig = {
  apiKeys: undefined,
  gatewayKey: undefined,
  evalConcurrency: DEFAULT_EVAL_CONCURRENCY,
  sourcesBudget: DEFAULT_SOURCES_BUDGET,
};

/** What the app is built from; tests pass a scripted gateway and fixed ids. */
export interface AppDeps {
  /** Routes `local` and gateway models (see createModelRouter). */
  gateway: Gateway;
  config: ServerConfig;
  newId: (prefix: "vfd" | "ext") => string;
  now: () => number;
}
