import type { FastifyInstance } from "fastify";
import { checkSourceIds, createVerified, usageToWire } from "../../service/index.js";
import {
  type CreateRequest,
  CreateRequestSchema,
  CreateResultSchema,
  ErrorBodySchema,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { operationContext } from "../request-state.js";

/** `POST /v1/verified`: a grounded answer with citations. */
export function registerCreateRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    "/v1/verified",
    {
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        summary: "Create a verified answer",
        description:
          "Asks the model for claims with quotes and keeps only the claims whose quotes are found in the sources.",
        body: CreateRequestSchema,
        response: { 200: CreateResultSchema, default: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const body = request.body as CreateRequest;
      request.verified.model = body.model;
      checkSourceIds(body.sources);
      const outcome = await createVerified(
        {
          model: body.model,
          messages: body.messages,
          sources: body.sources,
          mode: body.mode,
          minCoverage: body.min_coverage,
          retry: body.retry,
          checkNumbers: body.check_numbers,
          allowUngrounded: body.allow_ungrounded,
          temperature: body.temperature,
          maxTokens: body.max_tokens,
        },
        operationContext(request, reply, deps),
      );
      request.verified.modelCalls = outcome.usage.modelCalls;
      request.verified.coverage = outcome.coverage;
      return {
        id: deps.newId("vfd"),
        model: body.model,
        text: outcome.text,
        citations: outcome.citations,
        unsupported: outcome.unsupported,
        coverage: outcome.coverage,
        abstained: outcome.abstained,
        grounded: outcome.grounded,
        usage: usageToWire(outcome.usage),
      };
    },
  );
}
