// Every path of the HTTP API, once. The server registers its routes at them (and so the OpenAPI document
// lists them), the client calls them, and through the client so do the CLI and the playground.

/** The operations: each a POST of a JSON body that may call a model (check never does). */
export const OPERATION_PATHS = {
  create: "/v1/verified",
  extract: "/v1/verified/extract",
  eval: "/v1/verified/eval",
  check: "/v1/verified/check",
} as const;

/** One of the operations: `create`, `extract`, `eval` or `check`. */
export type OperationName = keyof typeof OPERATION_PATHS;

/** Every path the service answers, the operations included (the playground's files aside, served at `/`). */
export const API_PATHS = {
  ...OPERATION_PATHS,
  models: "/v1/models",
  healthz: "/healthz",
  readyz: "/readyz",
  openapi: "/openapi.json",
  metrics: "/metrics",
} as const;
