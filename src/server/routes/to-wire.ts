// The service's outcomes in the wire's snake_case shapes, for JSON answers and for streamed `done` events.
import {
  type CreateOutcome,
  type EvalCaseOutcome,
  type EvalOutcome,
  usageToWire,
} from "../../service/index.js";
import type { CreateResult, EvalResult } from "../../wire/index.js";

/** The wire result of create, streamed (`done`) or not. */
export function createResultToWire(id: string, model: string, outcome: CreateOutcome): CreateResult {
  return {
    id,
    model,
    text: outcome.text,
    citations: outcome.citations,
    unsupported: outcome.unsupported,
    coverage: outcome.coverage,
    abstained: outcome.abstained,
    grounded: outcome.grounded,
    usage: usageToWire(outcome.usage),
  };
}

/** The wire result of eval, streamed (`done`) or not. */
export function evalResultToWire(outcome: EvalOutcome): EvalResult {
  return {
    aggregate: {
      coverage_mean: outcome.aggregate.coverageMean,
      unsupported_rate: outcome.aggregate.unsupportedRate,
      n: outcome.aggregate.n,
      errored: outcome.aggregate.errored,
      ...(outcome.aggregate.correctRate === undefined ? {} : { correct_rate: outcome.aggregate.correctRate }),
    },
    cases: outcome.cases.map(caseToWire) as EvalResult["cases"],
    usage: { total_tokens: outcome.usage.totalTokens, model_calls: outcome.usage.modelCalls },
  };
}

/** One case on the wire: its `result`, when kept, in create's snake_case shape. */
export function caseToWire(outcome: EvalCaseOutcome) {
  if ("error" in outcome || outcome.result === undefined) return outcome;
  const { result, ...scores } = outcome;
  return {
    ...scores,
    result: {
      text: result.text,
      citations: result.citations,
      unsupported: result.unsupported,
      coverage: result.coverage,
      abstained: result.abstained,
      grounded: result.grounded,
      usage: usageToWire(result.usage),
    },
  };
}
