import {
  assembleClaims,
  type CandidateClaim,
  type CheckNumbers,
  type ClaimVerdict,
  type MatchMode,
  type PartialPolicy,
  prepareSources,
  type Source,
} from "../core/index.js";
import { ServiceError } from "../errors/index.js";
import { type ChatMessage, nextTurn } from "../models/index.js";
import type { CreateResult } from "../wire/index.js";
import { createProseAnswer } from "./answers/index.js";
import { checkSources } from "./check-sources.js";

import { type CreateObserver, createClaimEvents } from "./claim-events.js";
import { readClaimsReplySteps } from "./claim-stream-reader.js";
import { judgeClaimsYielding } from "./judge-yielding.js";
import { claimsOutputSchema } from "./model-output.js";
import type { OperationContext } from "./operation-context.js";
import { buildAnswerMessages, buildClaimsMessages, buildRetryFeedback } from "./prompts.js";
import { generateStructured, type StructuredReply } from "./structured-output.js";
import { addCall, emptyUsage, type UsageTotal } from "./usage.js";

/** A create request in the service's own (camelCase) terms. */
export interface CreateInput {
  model: string;
  messages: ChatMessage[];
  sources: Source[];
  mode?: MatchMode | undefined;
  minCoverage?: number | undefined;
  retry?: number | undefined;
  checkNumbers?: CheckNumbers | undefined;
  explain?: boolean | undefined;
  allowUngrounded?: boolean | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** `json` (default): claims with quotes; `text`: prose with `[id]` markers, checked as an answer. */
  answerFormat?: "json" | "text" | undefined;
  /** With `answerFormat: "text"`: keep (default) or drop partially supported claims. */
  partial?: PartialPolicy | undefined;
}

/** A create result before the wire mapper adds `id` and `model`. */
export interface CreateOutcome {
  text: string;
  /** A prose answer's citations and unsupported claims carry answer mode's fields (already snake_case). */
  citations: CreateResult["citations"];
  unsupported: CreateResult["unsupported"];
  /** A prose answer's partially supported words (`partial`); absent for claims with quotes. */
  partial?: CreateResult["partial"];
  coverage: number;
  abstained: boolean;
  grounded: boolean;
  usage: UsageTotal;
  /** A prose answer (`answer_format: "text"`): the model's answer its `answer_range`s count into. */
  answer?: string | undefined;
}

/** Options that change how create treats an ungroundable question; eval scores it instead of failing. */
export interface CreateBehaviour {
  /** When false (eval), an ungroundable question is a coverage-0 result, not a 422. */
  failWhenUngrounded: boolean;
  /** Where to count model calls; given by eval so calls of a case that fails are still counted. */
  usage?: UsageTotal | undefined;
  /** Asks for streaming: each claim is reported as soon as the model closes it and it has been checked. */
  observer?: CreateObserver | undefined;
}

function betterAttempt(candidate: ClaimVerdict[], best: ClaimVerdict[] | undefined): boolean {
  if (best === undefined) return true;
  const score = (verdicts: ClaimVerdict[]) => {
    const grounded = verdicts.filter((verdict) => verdict.grounded).length;
    return { coverage: verdicts.length === 0 ? 0 : grounded / verdicts.length, grounded };
  };
  const a = score(candidate);
  const b = score(best);
  // Ties keep the earlier attempt.
  return a.coverage > b.coverage || (a.coverage === b.coverage && a.grounded > b.grounded);
}

/**
 * Create: asks for claims with quotes, checks them, regenerates with feedback up to `retry` times while
 * any claim is unsupported, and keeps the best attempt. Throws `ungrounded` when nothing holds.
 */
export async function createVerified(
  input: CreateInput,
  context: OperationContext,
  behaviour: CreateBehaviour = { failWhenUngrounded: true },
): Promise<CreateOutcome> {
  const usage = behaviour.usage ?? emptyUsage();
  const generation = {
    model: input.model,
    temperature: input.temperature,
    maxTokens: input.maxTokens,
  };

  if (input.sources.length === 0 && input.allowUngrounded && behaviour.failWhenUngrounded) {
    return plainAnswer(input, context, usage, [], generation);
  }
  checkSources(input.sources, context.sourcesBudget);
  if (input.answerFormat === "text") {
    const prose = await createProseAnswer(
      {
        ...generation,
        messages: input.messages,
        sources: input.sources,
        options: {
          mode: input.mode,
          checkNumbers: input.checkNumbers,
          explain: input.explain,
          partial: input.partial,
        },
        retry: input.retry,
      },
      context,
      usage,
      behaviour.observer,
    );
    return finishCreate(prose, input, context, usage, behaviour, generation);
  }

  const prepared = prepareSources(input.sources);
  const options = { mode: input.mode, checkNumbers: input.checkNumbers, explain: input.explain };
  const baseMessages = buildClaimsMessages(input.sources, input.messages);
  let messages = baseMessages;
  let best: ClaimVerdict[] | undefined;
  const attempts = 1 + (input.retry ?? 0);
  const events =
    behaviour.observer && createClaimEvents(prepared, options, behaviour.observer, context.signal);

  for (let attempt = 0; attempt < attempts; attempt += 1) {
    let reply: StructuredReply<CandidateClaim[]>;
    try {
      reply = await generateStructured(
        context,
        {
          ...generation,
          messages,
          task: { kind: "claims", sources: input.sources, messages: input.messages },
          responseSchema: { name: "verified_claims", schema: claimsOutputSchema },
        },
        readClaimsReplySteps,
        usage,
        events?.nextCall,
      );
    } catch (error) {
      // A retry whose output is unusable does not undo an earlier usable attempt.
      if (best !== undefined && error instanceof ServiceError && error.type === "extraction_failed") break;
      throw error;
    }
    // Checked from a turn of its own, not in the pass of the event loop that parsed the reply.
    await nextTurn();
    const verdicts = events
      ? await events.settle(reply.value)
      : await judgeClaimsYielding(prepared, reply.value, options, context.signal);
    if (betterAttempt(verdicts, best)) best = verdicts;
    const failures = verdicts.flatMap((verdict) =>
      verdict.grounded ? [] : [{ ...verdict.candidate, reason: verdict.unsupported.reason }],
    );
    if (failures.length === 0) break;
    messages = [...baseMessages, ...buildRetryFeedback(reply.content, failures)];
  }

  return finishCreate(assembleClaims(best ?? []), input, context, usage, behaviour, generation);
}

/** The outcome of the best attempt: a flagged plain answer or `ungrounded` when nothing holds. */
async function finishCreate(
  result: Pick<CreateOutcome, "text" | "citations" | "unsupported" | "coverage" | "partial" | "answer">,
  input: CreateInput,
  context: OperationContext,
  usage: UsageTotal,
  behaviour: CreateBehaviour,
  generation: { model: string; temperature?: number | undefined; maxTokens?: number | undefined },
): Promise<CreateOutcome> {
  if (result.citations.length === 0 && behaviour.failWhenUngrounded) {
    if (input.allowUngrounded) {
      const plain = await plainAnswer(input, context, usage, result.unsupported, generation);
      return result.answer === undefined ? plain : { ...plain, answer: result.answer };
    }
    throw new ServiceError(
      "ungrounded",
      result.unsupported.length === 0
        ? "The model made no claim the sources support. Add sources that answer the question, or set allow_ungrounded for a flagged plain answer."
        : `None of the model's ${result.unsupported.length} claims could be grounded in the sources. See "unsupported" for why; set allow_ungrounded for a flagged plain answer.`,
      { unsupported: result.unsupported, answer: result.answer },
    );
  }
  const minCoverage = input.minCoverage ?? 0;
  return {
    ...result,
    abstained: minCoverage > 0 && result.coverage < minCoverage,
    grounded: true,
    usage,
  };
}

async function plainAnswer(
  input: CreateInput,
  context: OperationContext,
  usage: UsageTotal,
  unsupported: CreateOutcome["unsupported"],
  generation: { model: string; temperature?: number | undefined; maxTokens?: number | undefined },
): Promise<CreateOutcome> {
  const result = await context.gateway.generate({
    ...generation,
    messages: buildAnswerMessages(input.messages),
    task: { kind: "answer", messages: input.messages },
    apiKey: context.apiKey,
    signal: context.signal,
  });
  addCall(usage, result.usage);
  const minCoverage = input.minCoverage ?? 0;
  return {
    text: result.content.trim(),
    citations: [],
    unsupported,
    coverage: 0,
    abstained: minCoverage > 0,
    grounded: false,
    usage,
  };
}
