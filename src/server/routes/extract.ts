import type { FastifyInstance } from "fastify";
import { OPERATION_PATHS } from "../../api-paths.js";
import { MAX_REQUEST_BODY_BYTES } from "../../limits.js";
import { checkSourceIds, extractVerified, usageToWire } from "../../service/index.js";
import {
  convertFieldRanges,
  ErrorBodySchema,
  type ExtractRequest,
  ExtractRequestSchema,
  ExtractResultSchema,
  sourceTexts,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { operationContext } from "../request-state.js";

/** `POST /v1/verified/extract`: each field as a verbatim substring of a source, or null. */
export function registerExtractRoute(app: FastifyInstance, deps: AppDeps): void {
  // The body type is the schema's: Fastify validates it against ExtractRequestSchema before the handler runs.
  app.post<{ Body: ExtractRequest }>(
    OPERATION_PATHS.extract,
    {
      bodyLimit: MAX_REQUEST_BODY_BYTES,
      schema: {
        summary: "Extract verified fields",
        description: "Asks the model for each field and keeps only values found verbatim in a source.",
        body: ExtractRequestSchema,
        response: { 200: ExtractResultSchema, default: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      request.verified.model = body.model;
      checkSourceIds(body.sources);
      const outcome = await extractVerified(
        { model: body.model, sources: body.sources, schema: body.schema, mode: body.mode },
        operationContext(request, reply, deps),
      );
      request.verified.modelCalls = outcome.usage.modelCalls;
      request.verified.coverage = outcome.coverage;
      return {
        id: deps.newId("ext"),
        model: body.model,
        fields: convertFieldRanges(outcome.fields, body.offsets, { sources: sourceTexts(body.sources) }),
        coverage: outcome.coverage,
        usage: usageToWire(outcome.usage),
      };
    },
  );
}
