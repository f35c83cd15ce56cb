import type { FastifyInstance } from "fastify";
import { checkSourceIds, checkSources, verifyClaimsYielding } from "../../service/index.js";
import {
  type CheckRequest,
  CheckRequestSchema,
  CheckResultSchema,
  convertResultRanges,
  ErrorBodySchema,
  sourceTexts,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";

/** `POST /v1/verified/check`: the core without a model, for callers who already have claims. */
export function registerCheckRoute(app: FastifyInstance, deps: AppDeps): void {
  // The body type is the schema's: Fastify validates it against CheckRequestSchema before the handler runs.
  app.post<{ Body: CheckRequest }>(
    "/v1/verified/check",
    {
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        summary: "Check claims you already have",
        description: "Verifies claims with quotes against sources, with no model call.",
        body: CheckRequestSchema,
        response: { 200: CheckResultSchema, default: ErrorBodySchema },
      },
    },
    async (request) => {
      const body = request.body;
      checkSourceIds(body.sources);
      if (body.sources.length > 0) checkSources(body.sources, deps.config.sourcesBudget);
      // Checked in slices with turns of the event loop between them: see docs/performance.md.
      const result = await verifyClaimsYielding(body.sources, body.claims, {
        mode: body.mode,
        checkNumbers: body.check_numbers,
        explain: body.explain,
      });
      request.verified.modelCalls = 0;
      request.verified.coverage = result.coverage;
      const texts = { sources: sourceTexts(body.sources) };
      return {
        ...convertResultRanges(result, body.offsets, texts),
        usage: { model_calls: 0, total_tokens: 0 },
      };
    },
  );
}
