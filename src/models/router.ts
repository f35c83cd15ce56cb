import { ServiceError } from "../errors/index.js";
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

/** Sends `local` to the built-in model and every other id to the gateway, or fails with `model_not_found`. */
export function createModelRouter(backends: {
  local: ModelBackend;
  remote?: ModelBackend | undefined;
}): ModelBackend {
  return {
    // Without a gateway a gateway model is refused as model_not_found, which says more than a missing key.
    needsCallerKey: (model) => model !== localModelId && backends.remote !== undefined,
    generate(request) {
      if (request.model === localModelId) return backends.local.generate(request);
      if (backends.remote) return backends.remote.generate(request);
      return Promise.reject(
        new ServiceError(
          "model_not_found",
          `Model "${request.model}" needs a model gateway, and none is configured. Start the service with --gateway-url (or VERIFIED_GATEWAY_URL) pointing at an OpenAI-compatible endpoint, or use model "local".`,
          { param: "model" },
        ),
      );
    },
  };
}
