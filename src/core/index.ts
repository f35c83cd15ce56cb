// The pure verification core: strings and plain objects in, plain data out. No I/O, clock or randomness.

export { type Block, type Sentence, type Span, splitBlocks, splitSentences } from "./blocks/index.js";
export {
  addSourceMarker,
  aggregateCases,
  assembleClaims,
  type CaseScore,
  type ClaimVerdict,
  checkNumbers,
  describeNumberMiss,
  type EvalAggregate,
  type ExpectedMatch,
  explainNumbers,
  judgeClaimSteps,
  judgeClaims,
  matchExpected,
  type SourcesInput,
  verifyClaims,
} from "./claims/index.js";
export { verifyFields } from "./fields/index.js";
export {
  findDuplicateSourceId,
  memoizePerSource,
  type PreparedSource,
  prepareSources,
} from "./prepared-source.js";
export { findQuote } from "./quotes/index.js";
export { foldWord, forEachWord, splitWords } from "./text/index.js";
export type * from "./types.js";
export type {
  CandidateClaim,
  CandidateField,
  CheckNumbers,
  Citation,
  ClaimCheckOptions,
  MatchMode,
  Source,
  UnsupportedClaim,
} from "./types.js";
