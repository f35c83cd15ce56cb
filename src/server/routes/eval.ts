import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { OPERATION_PATHS } from "../../api-paths.js";
import { ServiceError } from "../../errors/index.js";
import { MAX_EVAL_BODY_BYTES, MAX_EVAL_CASES } from "../../limits.js";
import { checkSourceIds, type EvalInput, evalVerified } from "../../service/index.js";
import {
  ErrorBodySchema,
  type EvalRequest,
  EvalRequestSchema,
  EvalResultSchema,
  EvalStreamEventSchema,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";

import { operationContext } from "../request-state.js";
import { streamEval } from "./stream-operations.js";
import { evalResultToWire, matchRangeOnWire, resultCharsOnWire, resultChunks } from "./to-wire.js";

/** `POST /v1/verified/eval`: many create-style cases, scored and aggregated. */
export function registerEvalRoute(app: FastifyInstance, deps: AppDeps): void {
  // The body type is the schema's: Fastify validates it against EvalRequestSchema before the handler runs.
  app.post<{ Body: EvalRequest }>(
    OPERATION_PATHS.eval,
    {
      bodyLimit: MAX_EVAL_BODY_BYTES,
      schema: {
        summary: "Evaluate groundedness over a dataset",
        description: `Runs up to ${MAX_EVAL_CASES} cases like create, with bounded concurrency, and aggregates their coverage.`,
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
        // Runs before validation, so the body is still whatever JSON the caller sent.
        const cases = (request.body as unknown as { cases?: unknown } | undefined)?.cases;
        if (Array.isArray(cases) && cases.length > MAX_EVAL_CASES) {
          throw new ServiceError(
            "too_many_cases",
            `"cases" holds ${cases.length} cases; the limit is ${MAX_EVAL_CASES} per request. Page larger datasets (the client's evalAll does).`,
            { param: "cases" },
          );
        }
      },
    },
    async (request, reply) => {
      const body = request.body;
      request.verified.model = body.model;
      for (const [index, testCase] of body.cases.entries())
        checkSourceIds(testCase.sources, `cases[${index}].sources`);
      const input: EvalInput = {
        model: body.model,
        mode: body.mode,
        checkNumbers: body.check_numbers,
        retry: body.retry,
        minCoverage: body.min_coverage,
        answerFormat: body.answer_format,
        partial: body.partial,
        explain: body.explain,
        details: body.details,
        cases: body.cases,
      };
      if (body.stream === true) return streamEval(request, reply, deps, input, body.offsets);
      const outcome = await evalVerified(
        input,
        operationContext(request, reply, deps),
        deps.config.evalConcurrency,
        {
          resultChars: resultCharsOnWire(body.cases, body.offsets),
          matchRange: matchRangeOnWire(body.offsets),
        },
      );
      request.verified.modelCalls = outcome.usage.modelCalls;
      request.verified.coverage = outcome.aggregate.coverageMean;
      const result = evalResultToWire(outcome, body.offsets, body.cases);
      // Written in chunks (no preSerialization hook sees a stream, so the result's metrics are recorded here).
      deps.recordResult(request, result);
      return reply.type("application/json; charset=utf-8").send(Readable.from(resultChunks(result)));
    },
  );
}
