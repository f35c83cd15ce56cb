// The pure verification core: strings and plain objects in, plain data out. No I/O, clock or randomness.

export {
  type AnswerCheckOptions,
  type AnswerCitation,
  type AnswerClaim,
  type AnswerMarkers,
  type AnswerMiss,
  type AnswerPartialTerm,
  type AnswerReason,
  type AnswerResult,
  type AnswerUnsupported,
  answerCheckSteps,
  answerClaims,
  answerWithoutClaims,
  checkAnswer,
  coverageOf,
  markerSteps,
  type PartialPolicy,
  type PreparedAnswerSources,
  prepareAnswerSources,
  splitAnswerClaims,
  type TooManyClaims,
} from "./answers/index.js";
export {
  type Block,
  LONG_LINE,
  type Sentence,
  type Span,
  splitBlocks,
  splitSentences,
} from "./blocks/index.js";
export {
  type AnswerMissDetail,
  addSourceMarker,
  aggregateCases,
  assembleClaims,
  type CaseScore,
  type ClaimVerdict,
  checkNumbers,
  createPendingClaims,
  describeDrop,
  describeNumberMiss,
  type EvalAggregate,
  type ExpectedMatch,
  explainNumbers,
  judgeClaimSlices,
  judgeClaimSteps,
  judgeClaims,
  matchExpected,
  type PendingClaims,
  type SourcesInput,
  verifyClaims,
} from "./claims/index.js";
export { verifyFields } from "./fields/index.js";
export { PAUSE, type Pause } from "./pause.js";
export {
  findDuplicateSourceId,
  memoizePerSource,
  type PreparedSource,
  prepareSources,
} from "./prepared-source.js";
export { findQuote } from "./quotes/index.js";
export type { StepCounter } from "./step-counter.js";
export { splitRowCells, type TableCell } from "./tables/index.js";
export {
  foldWord,
  forEachWord,
  isStopWord,
  rankingStem,
  singularStem,
  splitsSurrogatePair,
  splitWords,
} from "./text/index.js";
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
