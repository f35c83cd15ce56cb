import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { OPERATION_PATHS } from "../../api-paths.js";
import { EVAL_ANSWER_CHUNK_CHARS, MAX_CHECK_BODY_BYTES } from "../../limits.js";
import {
  answerResultToWire,
  checkAnswerYielding,
  checkInputOf,
  checkSourceIds,
  checkSources,
  questionOf,
  verifyClaimsYielding,
} from "../../service/index.js";
import {
  type CheckRequest,
  CheckRequestSchema,
  CheckResultSchema,
  convertResultRanges,
  ErrorBodySchema,
  sourceTexts,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { resultChunks } from "./to-wire.js";

/** `POST /v1/verified/check`: the core without a model, for callers who already have claims. */
export function registerCheckRoute(app: FastifyInstance, deps: AppDeps): void {
  // The body type is the schema's: Fastify validates it against CheckRequestSchema before the handler runs.
  app.post<{ Body: CheckRequest }>(
    OPERATION_PATHS.check,
    {
      bodyLimit: MAX_CHECK_BODY_BYTES,
      schema: {
        summary: "Check claims or an answer you already have",
        description:
          "Verifies claims with quotes (`claims`), or a plain answer with citation markers (`answer`), against sources, with no model call.",
        body: CheckRequestSchema,
        response: { 200: CheckResultSchema, default: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const input = checkInputOf(body);
      checkSourceIds(body.sources);
      if (body.sources.length > 0) checkSources(body.sources, deps.config.sourcesBudget);
      request.verified.modelCalls = 0;
      if (input.kind === "answer") {
        const checked = await checkAnswerYielding(body.sources, input.answer, {
          mode: body.mode,
          checkNumbers: body.check_numbers,
          explain: body.explain,
          partial: body.partial,
          question: questionOf(body.messages),
        });
        request.verified.coverage = checked.coverage;
        const answerTexts = { sources: sourceTexts(body.sources), answer: input.answer };
        const result = {
          ...convertResultRanges(answerResultToWire(checked), body.offsets, answerTexts),
          usage: { model_calls: 0, total_tokens: 0 },
        };
        if (input.answer.length <= EVAL_ANSWER_CHUNK_CHARS) return result;
        // A long answer's result is written in chunks (no preSerialization hook sees a stream, so its metrics
        // are recorded here).
        deps.recordResult(request, result);
        return reply.type("application/json; charset=utf-8").send(Readable.from(resultChunks(result)));
      }
      // Checked in slices with turns of the event loop between them: see docs/performance.md.
      const result = await verifyClaimsYielding(body.sources, body.claims ?? [], {
        mode: body.mode,
        checkNumbers: body.check_numbers,
        explain: body.explain,
      });
      request.verified.coverage = result.coverage;
      const texts = { sources: sourceTexts(body.sources) };
      return {
        ...convertResultRanges(result, body.offsets, texts),
        usage: { model_calls: 0, total_tokens: 0 },
      };
    },
  );
}
