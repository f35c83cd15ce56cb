import type { FastifyInstance } from "fastify";
import { ServiceError } from "../../errors/service-error.js";
import { type EvalInput, type EvalOutcome, evalVerified } from "../../service/eval-verified.js";
import {
  ErrorBodySchema,
  type EvalRequest,
  EvalRequestSchema,
  type EvalResult,
  EvalResultSchema,
  EvalStreamEventSchema,
} from "../../wire/schemas.js";
import { checkSourceIds } from "../check-source-ids.js";
import type { AppDeps } from "../create-app.js";
import { operationContext } from "../request-state.js";
import { streamEval } from "../stream-operations.js";

/** The most cases one eval request may carry; larger datasets are paged by the client. */
export const maxEvalCases = 200;

/** `POST /v1/verified/eval`: many create-style cases, scored and aggregated. */
export function registerEvalRoute(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    "/v1/verified/eval",
    {
      bodyLimit: 64 * 1024 * 1024,
      schema: {
        summary: "Evaluate groundedness over a dataset",
        description:
          "Runs up to 200 cases like create, with bounded concurrency, and aggregates their coverage.",
        body: EvalRequestSchema,
        response: {
          200: {
            description: 'The result; with `"stream": true`, server-sent events ending in `done` or `error`.',
            content: {
              "application/json": { schema: EvalResultSchema },
              "text/event-stream": { schema: EvalStreamEventSchema },
            },
          },
          default: ErrorBodySchema,
        },
      },
      preValidation: async (request) => {
        // Counted before validation: an oversized batch is told to page, whatever else is wrong with it.
        const cases = (request.body as { cases?: unknown } | undefined)?.cases;
        if (Array.isArray(cases) && cases.length > maxEvalCases) {
          throw new ServiceError(
            "too_many_cases",
            `"cases" holds ${cases.length} cases; the limit is ${maxEvalCases} per request. Page larger datasets (the client's evalAll does).`,
            { param: "cases" },
          );
        }
      },
    },
    async (request, reply) => {
      const body = request.body as EvalRequest;
      request.verified.model = body.model;
      for (const [index, testCase] of body.cases.entries())
        checkSourceIds(testCase.sources, `cases[${index}].sources`);
      const input: EvalInput = {
        model: body.model,
        mode: body.mode,
        checkNumbers: body.check_numbers,
        retry: body.retry,
        minCoverage: body.min_coverage,
        cases: body.cases,
      };
      if (body.stream === true) return streamEval(request, reply, deps, input);
      const outcome = await evalVerified(
        input,
        operationContext(request, reply, deps),
        deps.config.evalConcurrency,
      );
      request.verified.modelCalls = outcome.usage.modelCalls;
      request.verified.coverage = outcome.aggregate.coverageMean;
      return evalResultToWire(outcome);
    },
  );
}

/** The wire result of eval, streamed (`done`) or not. */
export function evalResultToWire(outcome: EvalOutcome): EvalResult {
  return {
    aggregate: {
      coverage_mean: outcome.aggregate.coverageMean,
      unsupported_rate: outcome.aggregate.unsupportedRate,
      n: outcome.aggregate.n,
      errored: outcome.aggregate.errored,
    },
    cases: outcome.cases,
    usage: { total_tokens: outcome.usage.totalTokens, model_calls: outcome.usage.modelCalls },
  };
}
