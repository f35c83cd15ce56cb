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

/**
 * The drop-in paths: the OpenAI Chat Completions wire, and the guardrail endpoints gateways call (Portkey's
 * `default.webhook`; LiteLLM's generic guardrail API, whose `api_base` is the path before `/beta/…`).
 */
export const DROP_IN_PATHS = {
  chatCompletions: "/v1/chat/completions",
  portkeyGuardrail: "/v1/guardrails/portkey",
  litellmGuardrail: "/v1/guardrails/litellm/beta/litellm_basic_guardrail_api",
} as const;

/** Every path the service answers, the operations included (the playground's files aside, served at `/`). */
export const API_PATHS = {
  ...OPERATION_PATHS,
  ...DROP_IN_PATHS,
  models: "/v1/models",
  healthz: "/healthz",
  readyz: "/readyz",
  openapi: "/openapi.json",
  metrics: "/metrics",
} as const;
