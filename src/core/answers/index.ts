// Answer mode: a plain answer with citation markers, checked claim by claim against the sources by code.
export { type AnswerClaim, answerClaims, type Clause, splitAnswerClaims } from "./answer-claims.js";
export {
  type AnswerCheckOptions,
  type AnswerCitation,
  type AnswerMiss,
  type AnswerPartialTerm,
  type AnswerReason,
  type AnswerResult,
  type AnswerUnsupported,
  answerCheckSteps,
  answerWithoutClaims,
  checkAnswer,
  coverageOf,
  MAX_CITED_SOURCES_PER_CLAUSE,
  type PartialPolicy,
  type PreparedAnswerSources,
  prepareAnswerSources,
  SUPPORT_THRESHOLD,
  type TooManyClaims,
} from "./check-answer.js";
export {
  type AnswerMarkers,
  findMarkers,
  type Marker,
  type MarkerName,
  markerSteps,
  resolveMarkerName,
} from "./markers.js";
export { CANDIDATES, RARE_OCCURRENCES } from "./support.js";
