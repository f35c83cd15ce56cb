import type { AnswerCheckOptions, AnswerResult, Source } from "../../core/index.js";
import type { ChatMessage } from "../../models/index.js";
import type { CheckResult } from "../../wire/index.js";
import { answerResultToWire, checkAnswerYielding, questionOf } from "../check-answer.js";
import type { CreateObserver } from "../claim-events.js";
import type { OperationContext } from "../operation-context.js";
import { addCall, type UsageTotal } from "../usage.js";
import { buildProseMessages, buildProseRetryFeedback } from "./prose-prompts.js";
import { createSentenceEvents } from "./sentence-events.js";

/** What a prose create (`answer_format: "text"`) needs of the create request. */
export interface ProseRequest {
  model: string;
  messages: ChatMessage[];
  sources: Source[];
  options: Omit<AnswerCheckOptions, "question">;
  retry?: number | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
}

/** The verified prose answer: the check of the best attempt, in the wire's shape, and that attempt's answer. */
export type ProseOutcome = Omit<CheckResult, "usage"> & { answer: string };

// The better of two attempts: higher coverage, then more citations; ties keep the earlier one.
function betterAnswer(candidate: AnswerResult, best: AnswerResult | undefined): boolean {
  if (best === undefined) return true;
  return (
    candidate.coverage > best.coverage ||
    (candidate.coverage === best.coverage && candidate.citations.length > best.citations.length)
  );
}

/**
 * Asks for prose with `[id]` markers and checks it as an answer (`checkAnswer`, the user's messages as the
 * question); while any sentence is dropped, asks again up to `retry` times, telling the model which sentences
 * were dropped and why, and keeps the best attempt. Every call is added to `usage`; with `observer`, each
 * sentence's verdict is reported as the stream closes it.
 */
export async function createProseAnswer(
  request: ProseRequest,
  context: OperationContext,
  usage: UsageTotal,
  observer?: CreateObserver | undefined,
): Promise<ProseOutcome> {
  // The question's terms are read by the first check and shared by the rest (a streamed answer's pieces, retries).
  const options: AnswerCheckOptions = {
    ...request.options,
    question: questionOf(request.messages),
    questionTerms: {},
  };
  const baseMessages = buildProseMessages(request.sources, request.messages);
  const events = observer && createSentenceEvents(request.sources, options, observer, context.signal);
  let messages = baseMessages;
  let best: AnswerResult | undefined;
  let bestAnswer = "";
  const attempts = 1 + (request.retry ?? 0);
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const reply = await context.gateway.generate({
      model: request.model,
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      messages,
      task: { kind: "prose", sources: request.sources, messages: request.messages },
      apiKey: context.apiKey,
      signal: context.signal,
      stream: events?.nextCall(),
    });
    addCall(usage, reply.usage);
    const checked = events
      ? await events.settle(reply.content, context.signal)
      : await checkAnswerYielding(request.sources, reply.content, options, context.signal, undefined, {
          author: "model",
        });
    if (betterAnswer(checked, best)) {
      best = checked;
      bestAnswer = reply.content;
    }
    // The feedback is written only for a call that follows: for a long answer it is as long again.
    if (checked.unsupported.length === 0 || attempt + 1 === attempts) break;
    messages = [...baseMessages, ...buildProseRetryFeedback(reply.content, checked.unsupported)];
  }
  return { ...answerResultToWire(best as AnswerResult), answer: bestAnswer };
}
