import { createLocalModel } from "./local/index.js";
import { createOpenAIChatGateway } from "./openai/index.js";
import { createModelRouter } from "./router.js";
import type { Gateway } from "./types.js";

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
