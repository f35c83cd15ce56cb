import type { PreparedSource } from "../../prepared-source.js";
import type { Range } from "../../types.js";
import type { AnswerClaim } from "../answer-claims.js";
import { originalSpan, type ReadableSource } from "../scraped-text.js";
import type { SupportIndex, SupportSpan } from "../support.js";
import type { AnswerCitation, AnswerUnsupported, CheckContext, JudgedClause } from "./types.js";

// The entries a clause makes in the result: its citations (pooled sentences included) and, when it fails, its
// unsupported entry.

// A citation with its range and quote in the source as the caller gave it.
export function asGiven(context: CheckContext, citation: AnswerCitation): AnswerCitation {
  const source = context.index.sources[context.indexOfId.get(citation.source) as number] as ReadableSource;
  if (source.offsets === null) return citation;
  return { ...citation, ...originalSpan(source, citation.range) };
}

export function citationOf(
  index: SupportIndex,
  claim: string,
  answerRange: Range,
  span: SupportSpan,
): AnswerCitation {
  const source = index.sources[span.sourceIndex] as PreparedSource;
  return {
    claim,
    quote: source.text.slice(span.range[0], span.range[1]),
    source: source.id,
    range: [span.range[0], span.range[1]],
    support: roundSupport(span.support),
    answerRange: [answerRange[0], answerRange[1]],
  };
}

// The further sentences a span's support was pooled from, each a citation of its own (same source, claim and
// support).
export function pushPooled(
  judged: JudgedClause,
  index: SupportIndex,
  claim: string,
  answerRange: Range,
  span: SupportSpan,
): void {
  for (const range of span.more ?? []) {
    judged.supportSources.push(span.sourceIndex);
    judged.citations.push(citationOf(index, claim, answerRange, { ...span, range }));
  }
}

export const roundSupport = (value: number): number => Math.round(value * 10_000) / 10_000;

export function unsupportedOf(
  context: CheckContext,
  claim: AnswerClaim,
  clause: JudgedClause,
  failure: NonNullable<JudgedClause["failure"]>,
): AnswerUnsupported {
  const entry: AnswerUnsupported = {
    claim: claim.text,
    reason: failure.reason,
    answerRange: [claim.range[0], claim.range[1]],
  };
  const best = clause.best;
  if (best !== undefined && best.foundAll > 0) {
    const source = context.index.sources[best.sourceIndex] as ReadableSource;
    const { quote, range } = originalSpan(source, best.range);
    entry.source = source.id;
    entry.quote = quote;
    entry.range = range;
    entry.support = roundSupport(best.support);
  }
  if (failure.detail !== undefined) entry.detail = failure.detail;
  return entry;
}

// An unsupported entry without its best span: its claim, reason, answer range and detail.
export function withoutBestSpan({
  source: _s,
  quote: _q,
  range: _r,
  support: _p,
  ...entry
}: AnswerUnsupported) {
  return entry;
}
