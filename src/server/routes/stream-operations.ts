import type { FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../../errors/index.js";
import {
  batchFatal,
  type CreateInput,
  type CreateProgress,
  createVerified,
  type EvalInput,
  evalVerified,
} from "../../service/index.js";
import { type OffsetUnit, offsetCursor } from "../../wire/index.js";
import { type AppDeps, defaultStreamHeartbeatMs } from "../config.js";
import { operationContext } from "../request-state.js";
import { createEventStream } from "./event-stream.js";
import {
  caseToWire,
  createResultToWire,
  entryConverter,
  errorBodyChunks,
  errorToWire,
  evalResultToWire,
  keptEventJson,
  matchRangeOnWire,
  resultCharsOnWire,
  resultChunks,
} from "./to-wire.js";

/**
 * A streamed create: 200 `text/event-stream` once the first model call is accepted, `claim`/`unsupported`
 * as each claim is checked, `attempt` when another claims call starts, then `done` with the same result the
 * JSON answer would carry (written in chunks, `resultChunks`). A failure before the stream opened is thrown (an ordinary JSON error); after it,
 * it is sent as an `error` event.
 */
export async function streamCreate(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  input: CreateInput,
  unit: OffsetUnit | undefined,
): Promise<void> {
  const ranges = { unit, sources: input.sources };
  // A prose answer's `answer_range`s, in the stream's order, through one cursor for starts and one for ends
  // (a new attempt's answer starts them again).
  let answerOffsets = { starts: offsetCursor(unit), ends: offsetCursor(unit) };
  const entryToWire = entryConverter(ranges);
  // The events' JSON, for `done` (or the `ungrounded` error) to write the same entries without serialising them
  // again (a new attempt's events start them again).
  let sent = keptEventJson();
  const events = createEventStream(request, reply, deps.config.streamHeartbeatMs ?? defaultStreamHeartbeatMs);
  try {
    const outcome = await createVerified(input, operationContext(request, reply, deps), {
      failWhenUngrounded: true,
      observer: {
        open: () => events.open(),
        progress: (event) => send(event),
        drained: () => events.drained(),
      },
    });
    request.verified.modelCalls = outcome.usage.modelCalls;
    request.verified.coverage = outcome.coverage;
    const result = createResultToWire(deps.newId("vfd"), input.model, outcome, ranges);
    deps.recordResult(request, result);
    // In chunks with turns between them, as the JSON answer is: a prose answer's result of 4 MiB and thousands
    // of entries would otherwise hold the event loop for its whole serialisation.
    await events.sendChunks("done", resultChunks(result, undefined, sent.known));
    events.end();
  } catch (error) {
    const failure = errorToWire(error, ranges);
    if (!events.opened) throw failure;
    // A 422 `ungrounded` listing megabytes of failed claims goes in chunks, as `done` does.
    const chunks =
      failure instanceof ServiceError ? errorBodyChunks(failure, request.id, undefined, sent.known) : null;
    if (chunks === null) events.fail(failure);
    else {
      await events.sendChunks("error", chunks);
      events.end();
    }
  }

  function send(event: CreateProgress): void {
    if (event.type === "attempt") {
      answerOffsets = { starts: offsetCursor(unit), ends: offsetCursor(unit) };
      sent = keptEventJson();
      events.send("attempt", { attempt: event.attempt });
      return;
    }
    const answer = event.answer === undefined ? undefined : { text: event.answer, ...answerOffsets };
    const claim = event.type === "claim";
    const data = claim ? entryToWire(event.citation, answer) : entryToWire(event.unsupported, answer);
    const json = JSON.stringify(data);
    events.sendJson(event.type, json);
    sent.keep(claim ? "citations" : "unsupported", data, json);
  }
}

/**
 * A streamed eval: 200 `text/event-stream` once the first case finishes, a `case` event (`{index, …}`) as each
 * case finishes, then `done` with the same result the JSON answer would carry, or `error`. A batch that fails
 * (key, quota, model) before any case finished is an ordinary JSON error.
 */
export async function streamEval(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppDeps,
  input: EvalInput,
  unit: OffsetUnit | undefined,
): Promise<void> {
  const events = createEventStream(request, reply, deps.config.streamHeartbeatMs ?? defaultStreamHeartbeatMs);
  try {
    const outcome = await evalVerified(
      input,
      operationContext(request, reply, deps),
      deps.config.evalConcurrency,
      {
        onCase: (index, result) => {
          // A case failing for the whole batch is reported once, as the batch's error.
          if ("error" in result && batchFatal.has(result.error.type)) return;
          events.send("case", {
            index,
            ...caseToWire(result, { unit, sources: input.cases[index]?.sources ?? [] }),
          });
        },
        resultChars: resultCharsOnWire(input.cases, unit),
        matchRange: matchRangeOnWire(unit),
      },
    );
    request.verified.modelCalls = outcome.usage.modelCalls;
    request.verified.coverage = outcome.aggregate.coverageMean;
    const result = evalResultToWire(outcome, unit, input.cases);
    deps.recordResult(request, result);
    await events.sendChunks("done", resultChunks(result));
    events.end();
  } catch (error) {
    if (!events.opened) throw error;
    events.fail(error);
  }
}
