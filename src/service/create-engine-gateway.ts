import { createLocalModel } from "../gateway/local-model.js";
import { createOpenAIChatGateway } from "../gateway/openai-chat-gateway.js";
import type { Gateway } from "../gateway/types.js";
import { createModelRouter } from "./model-router.js";

/** The model backends of one process: the local model, and the OpenAI-compatible gateway when configured. */
export function createEngineGateway(settings: {
  gatewayURL: string | undefined;
  gatewayHeaders: Record<string, string>;
  gatewayTimeoutMs: number;
}): Gateway {
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
