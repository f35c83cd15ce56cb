import type { FastifyRequest } from "fastify";
import {
  DEFAULT_EVAL_CONCURRENCY,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SOURCES_BUDGET,
  DEFAULT_STREAM_HEARTBEAT_MS,
} from "../limits.js";
import type { ModelBackend, ModelListEntry } from "../models/index.js";

/** Everything the app needs to know about its deployment; built from flags and environment by `serve`. */
export interface ServerConfig {
  /** When set, callers must present one of these keys and the gateway is called with `gatewayKey`. */
  apiKeys: string[] | undefined;
  gatewayKey: string | undefined;
  evalConcurrency: number;
  sourcesBudget: number;
  /** The whole request (headers and body) must arrive within this; else 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** Idle time after which a streamed answer gets a comment line, so proxies keep it open; default 15 s. */
  streamHeartbeatMs?: number | undefined;
  /** What `GET /v1/models` lists; default the local model only (serve passes the configured routes). */
  models?: ModelListEntry[] | undefined;
}

/** Defaults as documented in docs/configuration.md. */
export const defaultServerConfig: ServerConfig = {
  apiKeys: undefined,
  gatewayKey: undefined,
  evalConcurrency: DEFAULT_EVAL_CONCURRENCY,
  sourcesBudget: DEFAULT_SOURCES_BUDGET,
  requestTimeoutMs: DEFAULT_REQUEST_TIMEOUT_MS,
  streamHeartbeatMs: DEFAULT_STREAM_HEARTBEAT_MS,
};

/** The heartbeat interval of streamed answers when the config gives none. */
export const defaultStreamHeartbeatMs = DEFAULT_STREAM_HEARTBEAT_MS;

/** What the app is built from; tests pass a scripted gateway and fixed ids. */
export interface AppDeps {
  /** Routes `local` and gateway models (see createModelRouter). */
  gateway: ModelBackend;
  config: ServerConfig;
  newId: (prefix: "vfd" | "ext") => string;
  now: () => number;
  /** Counts a successful result in the groundedness metrics; streamed answers call it with `done`. */
  recordResult: (request: FastifyRequest, result: unknown) => void;
  /** Counts one verification of `/v1/chat/completions` or a guardrail endpoint. */
  recordVerification: (labels: { route: string; action: string; verdict: string }) => void;
}
