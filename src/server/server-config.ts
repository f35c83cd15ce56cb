/** Everything the app needs to know about its deployment; built from flags and environment by `serve`. */
export interface ServerConfig {
  /** When set, callers must present one of these keys and the gateway is called with `gatewayKey`. */
  apiKeys: string[] | undefined;
  gatewayKey: string | undefined;
  evalConcurrency: number;
  sourcesBudget: number;
  /** The whole request (headers and body) must arrive within this; else 408 and the connection is closed. */
  requestTimeoutMs: number;
}

/** Defaults as documented in the README's configuration table. */
export const defaultServerConfig: ServerConfig = {
  apiKeys: undefined,
  gatewayKey: undefined,
  evalConcurrency: 8,
  sourcesBudget: 100_000,
  requestTimeoutMs: 30_000,
};

// Limits that bound the time, memory and log bytes one request can cost (docs/reliability-limits.md).

/** Sources one request may carry (create, extract, check), and one eval case; refused before parsing. */
export const maxSourcesPerRequest = 10_000;
/**
 * JSON values (objects, arrays, strings, numbers, literals) one body may hold, counted before parsing: it
 * bounds what `JSON.parse` allocates (200 cases of 1,000 sources are about 600,000 values).
 */
export const maxJsonValues = 2_000_000;
/** Default of VERIFIED_SHUTDOWN_TIMEOUT_MS: how long SIGTERM lets requests in flight finish. */
export const defaultShutdownTimeoutMs = 25_000;
/** The largest `Retry-After` (seconds) forwarded from a gateway; larger values are clamped to it. */
export const maxRetryAfterSeconds = 3_600;
/** Characters of any request string (model id, field name) quoted in a log line or an error message. */
export const maxQuotedRequestChars = 200;
/** Characters of the latest user message the built-in local model reads for its terms (create, eval). */
export const maxLocalQuestionChars = 2_000;
/** Characters of an extract field's name and of its description the built-in local model reads. */
export const maxLocalFieldTextChars = 200;
