import { type GatewaySettings, listModels, type ModelListEntry, type ModelRoute } from "./gateways.js";
import { createLocalModel } from "./local/index.js";
import { createOpenAIChatGateway } from "./openai/index.js";
import { createModelRouter, localModelId } from "./router.js";
import type { ModelBackend } from "./types.js";

/**
 * Where the remote models are: named gateways and routes (from a config file), or the one gateway of
 * VERIFIED_GATEWAY_URL, or none (the local model only).
 */
export interface ModelBackendSettings {
  /** Base URL of the one gateway (`…/v1`) every non-local id goes to; ignored when `gateways` is given. */
  gatewayURL: string | undefined;
  gatewayHeaders: Record<string, string>;
  gatewayTimeoutMs: number;
  /** Named gateways; with `routes`, they replace the one-gateway settings above. */
  gateways?: readonly GatewaySettings[] | undefined;
  routes?: readonly ModelRoute[] | undefined;
}

/** The name of the gateway the VERIFIED_GATEWAY_* variables (or --gateway-url) declare. */
export const defaultGatewayName = "default";

/** The gateways and routes the settings declare; the one-gateway settings become gateway "default" for `*`. */
export function gatewaysOf(settings: ModelBackendSettings): {
  gateways: GatewaySettings[];
  routes: ModelRoute[];
} {
  if (settings.gateways !== undefined) {
    return { gateways: [...settings.gateways], routes: [...(settings.routes ?? [])] };
  }
  if (settings.gatewayURL === undefined) return { gateways: [], routes: [] };
  return {
    gateways: [
      {
        name: defaultGatewayName,
        baseURL: settings.gatewayURL,
        authHeader: "bearer",
        headers: settings.gatewayHeaders,
        query: {},
        tokenParameter: "max_tokens",
        structuredOutput: "json_schema",
        timeoutMs: settings.gatewayTimeoutMs,
      },
    ],
    routes: [{ model: "*", gateway: defaultGatewayName, stripPrefix: false }],
  };
}

/** What `GET /v1/models` lists for these settings. */
export function listModelsOf(settings: ModelBackendSettings): ModelListEntry[] {
  return listModels(localModelId, gatewaysOf(settings).routes);
}

/** The model backends of one process: the local model, and each configured OpenAI-compatible gateway. */
export function createModelBackend(settings: ModelBackendSettings): ModelBackend {
  const { gateways, routes } = gatewaysOf(settings);
  return createModelRouter({
    local: createLocalModel(),
    gateways: gateways.map((gateway) => ({
      name: gateway.name,
      apiKeyEnv: gateway.apiKeyEnv,
      apiKey: gateway.apiKey,
      keyless: gateway.authHeader === "none",
      backend: createOpenAIChatGateway({
        name: gateway.name,
        baseURL: gateway.baseURL,
        headers: gateway.headers,
        query: gateway.query,
        authHeader: gateway.authHeader,
        tokenParameter: gateway.tokenParameter,
        structuredOutput: gateway.structuredOutput,
        timeoutMs: gateway.timeoutMs,
      }),
    })),
    routes,
  });
}
