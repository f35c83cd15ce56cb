/** Everything the app needs to know about its deployment; built from flags and environment by `serve`. */
export interface ServerConfig {
  /** When set, callers must present one of these keys and the gateway is called with `gatewayKey`. */
  apiKeys: string[] | undefined;
  gatewayKey: string | undefined;
  evalConcurrency: number;
  sourcesBudget: number;
  /** Idle time after which a streamed answer gets a comment line, so proxies keep it open; default 15 s. */
  streamHeartbeatMs?: number | undefined;
}

/** Defaults as documented in the README's configuration table. */
export const defaultServerConfig: ServerConfig = {
  apiKeys: undefined,
  gatewayKey: undefined,
  evalConcurrency: 8,
  sourcesBudget: 100_000,
  streamHeartbeatMs: 15_000,
};

/** The heartbeat interval of streamed answers when the config gives none. */
export const defaultStreamHeartbeatMs = 15_000;
