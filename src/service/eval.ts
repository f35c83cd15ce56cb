import pLimit from "p-limit";
import {
  aggregateCases,
  type CheckNumbers,
  type EvalAggregate,
  type ExpectedMatch,
  type MatchMode,
  matchExpected,
  type PartialPolicy,
  type Range,
  type Source,
} from "../core/index.js";
import { type ErrorType, ServiceError } from "../errors/index.js";
import { MAX_EVAL_DETAILS_CHARS } from "../limits.js";
import type { ChatMessage } from "../models/index.js";
import { type CreateOutcome, createVerified } from "./create.js";
import type { OperationContext } from "./operation-context.js";
import { emptyUsage } from "./usage.js";

/** An eval request in the service's own terms. */
export interface EvalInput {
  model: string;
  mode?: MatchMode | undefined;
  checkNumbers?: CheckNumbers | undefined;
  retry?: number | undefined;
  minCoverage?: number | undefined;
  /** How the model answers each case, as for create (`json` by default). */
  answerFormat?: "json" | "text" | undefined;
  /** With `answerFormat: "text"`: keep (default) or drop partially supported claims, as for create. */
  partial?: PartialPolicy | undefined;
  /** As for create: each dropped claim says why in `detail`. */
  explain?: boolean | undefined;
  /** When true, each scored case keeps its create-style result (`result`) within its details share. */
  details?: boolean | undefined;
  cases: {
    id?: string | number | undefined;
    messages: ChatMessage[];
    sources: Source[];
    /** Acceptable answers; the case is `correct` when one occurs in a grounded claim. */
    expected?: string | string[] | undefined;
  }[];
}

/** One case's score (with its create-style result when `details` was asked), or why it failed. */
export type EvalCaseOutcome =
  | {
      id?: string;
      coverage: number;
      citations: number;
      unsupported: number;
      correct?: boolean;
      match?: ExpectedMatch;
      result?: CreateOutcome;
      /** With `details`: the result was longer than the case's share of MAX_EVAL_DETAILS_CHARS. */
      resultOmitted?: "details_budget";
    }
  | { id?: string; error: { type: ErrorType; code: ErrorType; message: string } };

/** The eval result in the service's own terms. */
export interface EvalOutcome {
  aggregate: EvalAggregate;
  cases: EvalCaseOutcome[];
  usage: { totalTokens: number; modelCalls: number };
}

/**
 * Whether a case with `expected` was answered correctly: one of its answers occurs in a grounded claim (the
 * claims of the answer text, not its source markers), and which one and where; nothing without `expected`.
 */
function correctness(
  expected: string | string[] | undefined,
  outcome: CreateOutcome,
  matchRange: EvalHooks["matchRange"],
): { correct?: boolean; match?: ExpectedMatch } {
  if (expected === undefined) return {};
  const answers = typeof expected === "string" ? [expected] : expected;
  const claims = outcome.citations.map((citation) => citation.claim);
  const match = matchExpected(claims, answers);
  if (match === null) return { correct: false };
  const claim = claims[match.citation];
  if (matchRange === undefined || claim === undefined) return { correct: true, match };
  return { correct: true, match: { ...match, range: matchRange(claim, match.range) } };
}

/** Errors that mean no case can succeed, so the whole batch fails with them. */
export const batchFatal: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "invalid_key",
  "insufficient_quota",
  "model_not_found",
]);

/** How an eval is heard and measured by the server that answers it. */
export interface EvalHooks {
  /** Hears of each case as it finishes (for a streamed eval), with its index in `input.cases`. */
  onCase?: ((index: number, outcome: EvalCaseOutcome) => void) | undefined;
  /** The characters a case's result counts against the details budget: its JSON as answered (default: here). */
  resultChars?: ((index: number, result: CreateOutcome) => number) | undefined;
  /**
   * A correct case's `match.range` (UTF-16 code units into the matched claim's text) as answered: in the
   * request's `offsets` unit. Applied while the claim's text is at hand (a case without `details` keeps no
   * claim to count into later). Default: as is.
   */
  matchRange?: ((claim: string, range: Range) => Range) | undefined;
}

/**
 * A lower bound of the characters of the result's JSON, in linear time: its text, claims and quotes. A
 * result already over its share by this count is omitted without serializing it.
 */
export function resultCharsAtLeast(result: CreateOutcome): number {
  let chars = result.text.length;
  for (const entry of [...result.citations, ...result.unsupported])
    chars += entry.claim.length + (entry.quote?.length ?? 0);
  return chars;
}

/**
 * What `details` keeps of a scored case: a copy of its create-style result when its JSON fits the case's
 * equal share of MAX_EVAL_DETAILS_CHARS, else a marker, so an eval holds at most that much of the model's
 * answers. A copy (`structuredClone`), because the claims' strings are views into the model's whole output
 * (`parseByItems`): kept as they are, a short result would keep an output of megabytes alive.
 */
function detailsOf(
  outcome: CreateOutcome,
  share: number,
  chars: (result: CreateOutcome) => number,
): { result: CreateOutcome } | { resultOmitted: "details_budget" } {
  if (resultCharsAtLeast(outcome) > share || chars(outcome) > share)
    return { resultOmitted: "details_budget" };
  return { result: structuredClone(outcome) };
}

/**
 * Eval: runs every case like a create (an ungroundable case scores 0), at most `concurrency` cases at once
 * (so at most that many gateway calls in flight, and that many answers held while they are checked), and
 * aggregates. Auth, quota and unknown-model failures abort the rest and fail the batch.
 */
export async function evalVerified(
  input: EvalInput,
  context: OperationContext,
  concurrency: number,
  hooks: EvalHooks = {},
): Promise<EvalOutcome> {
  const { onCase, resultChars = (_index, result) => JSON.stringify(result).length } = hooks;
  const detailsShare = Math.floor(MAX_EVAL_DETAILS_CHARS / input.cases.length);
  const batch = new AbortController();
  const onCallerAbort = () => batch.abort(context.signal?.reason);
  context.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const caseContext: OperationContext = { ...context, signal: batch.signal };
  // A case holds its slot from its gateway call until it is scored: answers that arrive faster than they are
  // checked wait at the gateway, not in memory.
  const limit = pLimit(concurrency);
  let fatal: ServiceError | undefined;
  const usage = { totalTokens: 0, modelCalls: 0 };

  try {
    const cases = await Promise.all(
      input.cases.map((testCase, index) =>
        limit(async (): Promise<EvalCaseOutcome> => {
          const report = (outcome: EvalCaseOutcome) => {
            onCase?.(index, outcome);
            return outcome;
          };
          const caseUsage = emptyUsage();
          const named = testCase.id === undefined ? {} : { id: String(testCase.id) };
          try {
            const outcome = await createVerified(
              {
                model: input.model,
                messages: testCase.messages,
                sources: testCase.sources,
                mode: input.mode,
                checkNumbers: input.checkNumbers,
                retry: input.retry,
                minCoverage: input.minCoverage,
                answerFormat: input.answerFormat,
                partial: input.partial,
                explain: input.explain,
              },
              caseContext,
              { failWhenUngrounded: false, usage: caseUsage },
            );
            return report({
              ...named,
              coverage: outcome.coverage,
              citations: outcome.citations.length,
              unsupported: outcome.unsupported.length,
              ...correctness(testCase.expected, outcome, hooks.matchRange),
              ...(input.details
                ? detailsOf(outcome, detailsShare, (result) => resultChars(index, result))
                : {}),
            });
          } catch (error) {
            if (!(error instanceof ServiceError)) throw error;
            if (batchFatal.has(error.type)) {
              fatal ??= error;
              batch.abort(error);
            }
            // The message stays case-relative: a paging client's case index differs from this request's.
            return report({
              ...named,
              error: { type: error.type, code: error.type, message: error.message },
            });
          } finally {
            // Calls of a failed case were made and paid for, so they count too.
            usage.totalTokens += caseUsage.totalTokens;
            usage.modelCalls += caseUsage.modelCalls;
          }
        }),
      ),
    );
    if (fatal) throw fatal;
    if (context.signal?.aborted) throw context.signal.reason;
    return { aggregate: aggregateCases(cases), cases, usage };
  } finally {
    context.signal?.removeEventListener("abort", onCallerAbort);
  }
}
