// Answer mode: a plain answer with citation markers, checked claim by claim against the sources by code.
export { type AnswerClaim, answerClaims, type Clause, splitAnswerClaims } from "./answer-claims.js";
export { answerWithoutClaims, coverageOf } from "./answer-text.js";
export {
  type AnswerCheckOptions,
  type AnswerResult,
  answerCheckSteps,
  checkAnswer,
  MAX_CITED_SOURCES_PER_CLAUSE,
  type PartialPolicy,
  type PreparedAnswerSources,
  prepareAnswerSources,
  type TooManyClaims,
} from "./check-answer.js";
export {
  type AnswerCitation,
  type AnswerMiss,
  type AnswerPartialTerm,
  type AnswerReason,
  type AnswerUnsupported,
  SUPPORT_THRESHOLD,
} from "./clause-check/index.js";
export {
  type AnswerMarkers,
  findMarkers,
  type Marker,
  type MarkerName,
  markerSteps,
  resolveMarkerName,
} from "./markers.js";
export { CANDIDATES, RARE_OCCURRENCES } from "./support.js";
