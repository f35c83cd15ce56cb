import { createLocalModel } from "./local/index.js";
import { createOpenAIChatGateway } from "./openai/index.js";
import { createModelRouter } from "./router.js";
import type { ModelBackend } from "./types.js";

/** Where the remote models are: an OpenAI-compatible gateway, or none (the local model only). */
export interface ModelBackendSettings {
  /** Base URL of the gateway (`…/v1`), or undefined for the local model only. */
  gatewayURL: string | undefined;
  gatewayHeaders: Record<string, string>;
  gatewayTimeoutMs: number;
}

/** The model backends of one process: the local model, and the OpenAI-compatible gateway when configured. */
export function createModelBackend(settings: ModelBackendSettings): ModelBackend {
  const remote =
    settings.gatewayURL === undefined
      ? undefined
      : createOpenAIChatGateway({
          baseURL: settings.gatewayURL,
          headers: settings.gatewayHeaders,
          timeoutMs: settings.gatewayTimeoutMs,
        });
  return createModelRouter({ local: createLocalModel(), remote });
}
