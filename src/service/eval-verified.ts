import pLimit from "p-limit";
import type { CheckNumbers, MatchMode, Source } from "../core/types.js";
import type { ErrorType } from "../errors/error-registry.js";
import { ServiceError } from "../errors/service-error.js";
import type { ChatMessage, Gateway } from "../gateway/types.js";
import { createVerified } from "./create-verified.js";
import type { OperationContext } from "./operation-context.js";
import { emptyUsage } from "./usage-total.js";

/** An eval request in the service's own terms. */
export interface EvalInput {
  model: string;
  mode?: MatchMode | undefined;
  checkNumbers?: CheckNumbers | undefined;
  retry?: number | undefined;
  minCoverage?: number | undefined;
  cases: { messages: ChatMessage[]; sources: Source[] }[];
}

/** One case's score, or why it failed. */
export type EvalCaseOutcome =
  | { coverage: number; citations: number; unsupported: number }
  | { error: { type: ErrorType; code: ErrorType; message: string } };

/** The eval result in the service's own terms. */
export interface EvalOutcome {
  aggregate: { coverageMean: number; unsupportedRate: number; n: number; errored: number };
  cases: EvalCaseOutcome[];
  usage: { totalTokens: number; modelCalls: number };
}

/** Errors that mean no case can succeed, so the whole batch fails with them. */
export const batchFatal: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "invalid_key",
  "insufficient_quota",
  "model_not_found",
]);

function limitGateway(gateway: Gateway, concurrency: number): Gateway {
  const limit = pLimit(concurrency);
  return { generate: (request) => limit(() => gateway.generate(request)) };
}

/**
 * Eval: runs every case like a create (an ungroundable case scores 0), with at most `concurrency` gateway
 * calls in flight, and aggregates. Auth, quota and unknown-model failures abort the rest and fail the batch.
 * `onCase` hears of each case as it finishes (for a streamed eval), with its index in `input.cases`.
 */
export async function evalVerified(
  input: EvalInput,
  context: OperationContext,
  concurrency: number,
  onCase?: ((index: number, outcome: EvalCaseOutcome) => void) | undefined,
): Promise<EvalOutcome> {
  const batch = new AbortController();
  const onCallerAbort = () => batch.abort(context.signal?.reason);
  context.signal?.addEventListener("abort", onCallerAbort, { once: true });
  const caseContext: OperationContext = {
    ...context,
    gateway: limitGateway(context.gateway, concurrency),
    signal: batch.signal,
  };
  let fatal: ServiceError | undefined;
  const usage = { totalTokens: 0, modelCalls: 0 };

  try {
    const cases = await Promise.all(
      input.cases.map(async (testCase, index): Promise<EvalCaseOutcome> => {
        const report = (outcome: EvalCaseOutcome) => {
          onCase?.(index, outcome);
          return outcome;
        };
        const caseUsage = emptyUsage();
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
            },
            caseContext,
            { failWhenUngrounded: false, usage: caseUsage },
          );
          return report({
            coverage: outcome.coverage,
            citations: outcome.citations.length,
            unsupported: outcome.unsupported.length,
          });
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          if (batchFatal.has(error.type)) {
            fatal ??= error;
            batch.abort(error);
          }
          // The message stays case-relative: a paging client's case index differs from this request's.
          return report({ error: { type: error.type, code: error.type, message: error.message } });
        } finally {
          // Calls of a failed case were made and paid for, so they count too.
          usage.totalTokens += caseUsage.totalTokens;
          usage.modelCalls += caseUsage.modelCalls;
        }
      }),
    );
    if (fatal) throw fatal;
    if (context.signal?.aborted) throw context.signal.reason;
    return { aggregate: aggregate(cases), cases, usage };
  } finally {
    context.signal?.removeEventListener("abort", onCallerAbort);
  }
}

function aggregate(cases: readonly EvalCaseOutcome[]): EvalOutcome["aggregate"] {
  let coverageSum = 0;
  let scored = 0;
  let unsupported = 0;
  let claims = 0;
  for (const result of cases) {
    if ("error" in result) continue;
    scored += 1;
    coverageSum += result.coverage;
    unsupported += result.unsupported;
    claims += result.citations + result.unsupported;
  }
  return {
    coverageMean: scored === 0 ? 0 : coverageSum / scored,
    unsupportedRate: claims === 0 ? 0 : unsupported / claims,
    n: cases.length,
    errored: cases.length - scored,
  };
}
