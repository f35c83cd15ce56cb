import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { OPERATION_PATHS } from "../../api-paths.js";
import { ServiceError } from "../../errors/index.js";
import { EVAL_ANSWER_CHUNK_CHARS, MAX_REQUEST_BODY_BYTES } from "../../limits.js";
import {
  type CreateInput,
  type CreateOutcome,
  checkSourceIds,
  createVerified,
  resultCharsAtLeast,
} from "../../service/index.js";

import {
  type CreateRequest,
  CreateRequestSchema,
  CreateResultSchema,
  CreateStreamEventSchema,
  ErrorBodySchema,
} from "../../wire/index.js";
import type { AppDeps } from "../config.js";
import { operationContext } from "../request-state.js";
import { streamCreate } from "./stream-operations.js";
import { createResultToWire, errorBodyChunks, errorToWire, resultChunks } from "./to-wire.js";

/** `POST /v1/verified`: a grounded answer with citations. */
export function registerCreateRoute(app: FastifyInstance, deps: AppDeps): void {
  // The body type is the schema's: Fastify validates it against CreateRequestSchema before the handler runs.
  app.post<{ Body: CreateRequest }>(
    OPERATION_PATHS.create,
    {
      bodyLimit: MAX_REQUEST_BODY_BYTES,
      schema: {
        summary: "Create a verified answer",
        description:
          "Asks the model for claims with quotes and keeps only the claims whose quotes are found in the sources.",
        body: CreateRequestSchema,
        response: {
          200: {
            description: 'The result; with `"stream": true`, server-sent events ending in `done` or `error`.',
            content: {
              "application/json": { schema: CreateResultSchema },
              "text/event-stream": { schema: CreateStreamEventSchema },
            },
          },
          default: ErrorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      request.verified.model = body.model;
      checkSourceIds(body.sources);
      const input: CreateInput = {
        model: body.model,
        messages: body.messages,
        sources: body.sources,
        mode: body.mode,
        minCoverage: body.min_coverage,
        retry: body.retry,
        checkNumbers: body.check_numbers,
        explain: body.explain,
        allowUngrounded: body.allow_ungrounded,
        answerFormat: body.answer_format,
        partial: body.partial,
        temperature: body.temperature,
        maxTokens: body.max_tokens,
      };
      if (body.stream === true) return streamCreate(request, reply, deps, input, body.offsets);
      const ranges = { unit: body.offsets, sources: body.sources };
      let outcome: CreateOutcome;
      try {
        outcome = await createVerified(input, operationContext(request, reply, deps));
      } catch (error) {
        const failure = errorToWire(error, ranges);
        if (!(failure instanceof ServiceError)) throw failure;
        const chunks = errorBodyChunks(failure, request.id);
        if (chunks === null) throw failure;
        // A 422 `ungrounded` listing megabytes of failed claims is written in chunks, as a large result is.
        return reply
          .status(failure.status)
          .type("application/json; charset=utf-8")
          .send(Readable.from(chunks));
      }
      request.verified.modelCalls = outcome.usage.modelCalls;
      request.verified.coverage = outcome.coverage;
      const result = createResultToWire(deps.newId("vfd"), body.model, outcome, ranges);
      if (resultCharsAtLeast(outcome) <= EVAL_ANSWER_CHUNK_CHARS) return result;
      // A large result (a model's prose answer of megabytes, or megabytes of claims) is written in chunks, as
      // check's and eval's are: one serialisation of a 9 MB result held the event loop. No preSerialization
      // hook sees a stream, so its metrics are recorded here.
      deps.recordResult(request, result);
      return reply.type("application/json; charset=utf-8").send(Readable.from(resultChunks(result)));
    },
  );
}
