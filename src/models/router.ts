import { ServiceError } from "../errors/index.js";
import { type ModelRoute, resolveRoute } from "./gateways.js";
import { relayByGenerate } from "./relay-by-generate.js";
import type { ModelBackend } from "./types.js";

/** The model id of the built-in local model. */
export const localModelId = "local";

/**
 * Whether a call to `model` needs the caller's key when the backend does not say: a gateway model is called
 * with it; the built-in local model runs in this process and needs none.
 */
export function modelNeedsCallerKey(backend: ModelBackend, model: string): boolean {
  return backend.needsCallerKey?.(model) ?? model !== localModelId;
}

/** A gateway the router may send calls to, with what it needs to know about its key. */
export interface RoutedGateway {
  name: string;
  backend: ModelBackend;
  /** The variable the gateway's own key comes from, and its value (undefined when the variable is unset). */
  apiKeyEnv?: string | undefined;
  apiKey?: string | undefined;
  /** True when the gateway is configured to send no key at all. */
  keyless?: boolean | undefined;
}

/**
 * Sends `local` to the built-in model and every other id to the gateway its route names (exact ids first,
 * then the longest prefix pattern, then `*`), or fails with `model_not_found`. A gateway with its own key
 * variable gets that key, never the caller's; when the variable is unset the call is refused with a message
 * that names it (never a value).
 */
export function createModelRouter(backends: {
  local: ModelBackend;
  gateways?: readonly RoutedGateway[] | undefined;
  routes?: readonly ModelRoute[] | undefined;
}): ModelBackend {
  const gateways = new Map((backends.gateways ?? []).map((gateway) => [gateway.name, gateway]));
  const routes = backends.routes ?? [];
  return {
    // Only a gateway that takes the request's key needs one. A model no route reaches is refused as
    // model_not_found, which says more than a missing key.
    needsCallerKey(model) {
      if (model === localModelId) return false;
      const resolved = resolveRoute(routes, model);
      const gateway = resolved === undefined ? undefined : gateways.get(resolved.route.gateway);
      return gateway !== undefined && gateway.apiKeyEnv === undefined && gateway.keyless !== true;
    },
    answererOf(model) {
      if (model === localModelId) return localModelId;
      const resolved = resolveRoute(routes, model);
      return resolved === undefined ? undefined : gateways.get(resolved.route.gateway)?.name;
    },
    generate(request) {
      if (request.model === localModelId) return backends.local.generate(request);
      return routed(request.model, request.apiKey, (backend, model, apiKey) =>
        backend.generate({ ...request, model, apiKey }),
      );
    },
    relay(request) {
      if (request.model === localModelId) return relayByGenerate(backends.local, request);
      return routed(request.model, request.apiKey, async (backend, model, apiKey, hinted) => {
        const answer = await (backend.relay === undefined
          ? relayByGenerate(backend, { ...request, model, apiKey })
          : backend.relay({ ...request, body: { ...request.body, model }, model, apiKey }));
        return answer.failure === undefined ? answer : { ...answer, failure: hinted(answer.failure) };
      });
    },
  };

  /**
   * Calls the gateway `model` routes to, with the gateway's own id for the model and the key it takes; an
   * `invalid_key` from a call that carried no key says how to give one (thrown, or a relayed refusal's
   * `failure`, through `hinted`).
   */
  function routed<T>(
    model: string,
    callerKey: string | undefined,
    call: (
      backend: ModelBackend,
      upstreamModel: string,
      apiKey: string | undefined,
      hinted: (error: ServiceError) => ServiceError,
    ) => Promise<T>,
  ): Promise<T> {
    const resolved = resolveRoute(routes, model);
    const gateway = resolved === undefined ? undefined : gateways.get(resolved.route.gateway);
    if (resolved === undefined || gateway === undefined) {
      return Promise.reject(noRoute(model, gateways.size > 0));
    }
    if (resolved.upstreamModel === "") {
      return Promise.reject(
        new ServiceError(
          "model_not_found",
          `Model "${quoteModel(model)}" names no model after its prefix; add the gateway's model id after it.`,
          { param: "model" },
        ),
      );
    }
    let apiKey = gateway.keyless ? undefined : callerKey;
    if (gateway.apiKeyEnv !== undefined) {
      if (gateway.apiKey === undefined) {
        return Promise.reject(
          new ServiceError(
            "invalid_key",
            `Model "${quoteModel(model)}" goes to gateway "${gateway.name}", whose key is read from the environment variable ${gateway.apiKeyEnv}, which is not set on the service. Set it and restart the service.`,
          ),
        );
      }
      apiKey = gateway.apiKey;
    }
    const keyGiven = apiKey !== undefined || gateway.keyless === true;
    const hinted = (error: ServiceError) =>
      keyGiven || error.type !== "invalid_key"
        ? error
        : new ServiceError("invalid_key", `${error.message} ${missingKeyHint(gateway.name)}`);
    const answer = call(gateway.backend, resolved.upstreamModel, apiKey, hinted);
    if (keyGiven) return answer;
    return answer.catch((error: unknown) => {
      throw error instanceof ServiceError ? hinted(error) : error;
    });
  }
}

/** What to do when a gateway refused a call that carried no key; names variables, never values. */
function missingKeyHint(gateway: string): string {
  return `The call to gateway "${gateway}" carried no key: set VERIFIED_GATEWAY_KEY on the service (with VERIFIED_API_KEYS) or api_key_env for the gateway in the config file, or, on a service without VERIFIED_API_KEYS, send the provider's key as "Authorization: Bearer <key>".`;
}

function noRoute(model: string, anyGateway: boolean): ServiceError {
  const message = anyGateway
    ? `Model "${quoteModel(model)}" matches no route of the service's configuration. GET /v1/models lists the models and patterns you may use, or use model "local".`
    : `Model "${quoteModel(model)}" needs a model gateway, and none is configured. Start the service with --gateway-url (or VERIFIED_GATEWAY_URL) pointing at an OpenAI-compatible endpoint, or use model "local".`;
  return new ServiceError("model_not_found", message, { param: "model" });
}

/** Model ids come from callers: long ones are cut in messages. */
function quoteModel(model: string): string {
  return model.length > 100 ? `${model.slice(0, 100)}…` : model;
}
