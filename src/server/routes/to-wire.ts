// The service's outcomes in the wire's snake_case shapes, for JSON answers and for streamed events. Ranges
// leave in the request's `offsets` unit: they are converted here, once (src/wire/offsets.ts).
import {
  type CreateOutcome,
  type EvalCaseOutcome,
  type EvalOutcome,
  usageToWire,
} from "../../service/index.js";
import {
  type CreateResult,
  convertRanges,
  convertResultRanges,
  type EvalResult,
  type OffsetUnit,
  sourceTexts,
} from "../../wire/index.js";

/** The unit a request asked its ranges in, and the sources they count into. */
export interface WireRanges {
  unit: OffsetUnit | undefined;
  sources: readonly { id: string; text: string }[];
}

/** The wire result of create, streamed (`done`) or not. */
export function createResultToWire(
  id: string,
  model: string,
  outcome: CreateOutcome,
  ranges: WireRanges,
): CreateResult {
  return convertResultRanges(
    {
      id,
      model,
      text: outcome.text,
      citations: outcome.citations,
      unsupported: outcome.unsupported,
      coverage: outcome.coverage,
      abstained: outcome.abstained,
      grounded: outcome.grounded,
      usage: usageToWire(outcome.usage),
    },
    ranges.unit,
    { sources: sourceTexts(ranges.sources) },
  );
}

/** One streamed claim or unsupported entry, its ranges in the request's unit. */
export function entryToWire<Entry extends object>(entry: Entry, ranges: WireRanges): Entry {
  return convertRanges([entry], ranges.unit, { sources: sourceTexts(ranges.sources) })[0] as Entry;
}

/** The wire result of eval, streamed (`done`) or not; `cases` are the request's, for the ranges' sources. */
export function evalResultToWire(
  outcome: EvalOutcome,
  unit: OffsetUnit | undefined,
  cases: readonly { sources: { id: string; text: string }[] }[],
): EvalResult {
  return {
    aggregate: {
      coverage_mean: outcome.aggregate.coverageMean,
      unsupported_rate: outcome.aggregate.unsupportedRate,
      n: outcome.aggregate.n,
      errored: outcome.aggregate.errored,
      ...(outcome.aggregate.correctRate === undefined ? {} : { correct_rate: outcome.aggregate.correctRate }),
    },
    cases: outcome.cases.map((result, index) =>
      caseToWire(result, { unit, sources: cases[index]?.sources ?? [] }),
    ) as EvalResult["cases"],
    usage: { total_tokens: outcome.usage.totalTokens, model_calls: outcome.usage.modelCalls },
  };
}

/** One case on the wire: its `result`, when kept, in create's snake_case shape. */
export function caseToWire(outcome: EvalCaseOutcome, ranges: WireRanges) {
  if ("error" in outcome || outcome.result === undefined) return outcome;
  const { result, ...scores } = outcome;
  return {
    ...scores,
    result: convertResultRanges(
      {
        text: result.text,
        citations: result.citations,
        unsupported: result.unsupported,
        coverage: result.coverage,
        abstained: result.abstained,
        grounded: result.grounded,
        usage: usageToWire(result.usage),
      },
      ranges.unit,
      { sources: sourceTexts(ranges.sources) },
    ),
  };
}
