import type { FastifyInstance } from "fastify";
import { API_PATHS } from "../../api-paths.js";
import { localModelId } from "../../models/index.js";
import { ErrorBodySchema, type ModelList, ModelListSchema } from "../../wire/index.js";
import type { AppDeps } from "../config.js";

/** `GET /v1/models`: the model ids and patterns a caller may send, and the gateway each goes to. */
export function registerModelsRoute(app: FastifyInstance, deps: AppDeps): void {
  const list: ModelList = {
    models: deps.config.models ?? [{ id: localModelId, match: "exact", gateway: null }],
  };
  app.get(
    API_PATHS.models,
    {
      schema: {
        summary: "Models you may use",
        description:
          'The local model, then each configured model id or pattern ("ollama/*") with its gateway. Needs a key like the operations.',
        response: { 200: ModelListSchema, default: ErrorBodySchema },
      },
    },
    async () => list,
  );
}
