/** How the gateway expects the key: `Authorization: Bearer <key>` (most), `api-key: <key>` (Azure), or none. */
export type GatewayAuthHeader = "bearer" | "api-key" | "none";

/** The most structured `response_format` a gateway is asked for first; refusals still fall back from it. */
export type StructuredOutputLevel = "json_schema" | "json_object" | "none";

/** Which body field carries the output-token cap: `max_tokens`, or OpenAI's newer `max_completion_tokens`. */
export type TokenParameter = "max_tokens" | "max_completion_tokens";

/** One named OpenAI-compatible gateway, as the config file (or the VERIFIED_GATEWAY_* variables) declare it. */
export interface GatewaySettings {
  name: string;
  /** Base URL including any `/v1` (Azure: `…/openai/deployments/{deployment}`). */
  baseURL: string;
  /**
   * The environment variable the key is read from; when set, its value (`apiKey`) is sent and the caller's
   * key never is. When unset, the call carries the key the request brought (see ServerConfig.gatewayKey).
   */
  apiKeyEnv?: string | undefined;
  apiKey?: string | undefined;
  authHeader: GatewayAuthHeader;
  headers: Record<string, string>;
  /** Query parameters added to every call (Azure's `api-version`). */
  query: Record<string, string>;
  tokenParameter: TokenParameter;
  structuredOutput: StructuredOutputLevel;
  timeoutMs: number;
}

/** Sends model ids to a gateway: an exact id, a prefix pattern `ollama/*`, or `*` for every id. */
export interface ModelRoute {
  model: string;
  gateway: string;
  /** For a prefix pattern: call the gateway with the id after the prefix (`ollama/llama3.1` → `llama3.1`). */
  stripPrefix: boolean;
}

/** One line of `GET /v1/models`: what a caller may put in `model`, and where it goes. */
export interface ModelListEntry {
  id: string;
  /** `exact`: this id; `prefix`: any id starting with `id` minus its `*`; `any`: every id not matched before. */
  match: "exact" | "prefix" | "any";
  /** The gateway's name, or null for the built-in local model. */
  gateway: string | null;
}

/** Where one model id goes: the route that matched and the id to send. */
export interface ResolvedRoute {
  route: ModelRoute;
  upstreamModel: string;
}

/** Whether `pattern` is a prefix pattern (`ollama/*`) or the catch-all `*`. */
export function isPattern(pattern: string): boolean {
  return pattern.endsWith("*");
}

/**
 * The route for `model`: an exact id first, then the longest matching prefix pattern, then `*`. O(r·m) for r
 * routes and an id of length m, with no regex.
 */
export function resolveRoute(routes: readonly ModelRoute[], model: string): ResolvedRoute | undefined {
  let best: ModelRoute | undefined;
  let bestLength = -1;
  for (const route of routes) {
    if (!isPattern(route.model)) {
      if (route.model === model) return { route, upstreamModel: model };
      continue;
    }
    const prefix = route.model.slice(0, -1);
    if (model.startsWith(prefix) && prefix.length > bestLength) {
      best = route;
      bestLength = prefix.length;
    }
  }
  if (best === undefined) return undefined;
  const stripped = best.stripPrefix ? model.slice(bestLength) : model;
  return { route: best, upstreamModel: stripped };
}

/** What `GET /v1/models` lists: the local model, then each route in the order configured. */
export function listModels(localModelId: string, routes: readonly ModelRoute[]): ModelListEntry[] {
  return [
    { id: localModelId, match: "exact", gateway: null },
    ...routes.map(
      (route): ModelListEntry => ({
        id: route.model,
        match: route.model === "*" ? "any" : isPattern(route.model) ? "prefix" : "exact",
        gateway: route.gateway,
      }),
    ),
  ];
}
