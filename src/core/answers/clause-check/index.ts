// The checks of an answer's clauses: how a clause is read, its names, quotations and numbers, its failures, and
// the entries it makes in the result.
export { clauseTerms, HAS_DIGIT, readQuestionTerms } from "./clause-terms.js";
export { addWantedInitials, answerInitials, missingEntity } from "./entities.js";
export { asGiven, citationOf, pushPooled, unsupportedOf, withoutBestSpan } from "./entries.js";
export {
  datedInSourceYear,
  numberCheckOf,
  numberMiss,
  numberOutsideSupport,
  numbersToCheck,
  supportValues,
} from "./number-checks.js";
export {
  announceQuotation,
  elidedPieces,
  holdsQuotation,
  quotationMiss,
  quotationsOf,
} from "./quotations.js";
export type {
  AnswerCitation,
  AnswerMiss,
  AnswerPartialTerm,
  AnswerReason,
  AnswerUnsupported,
  CheckContext,
  ClauseTerms,
  Judged,
  JudgedClause,
  QuestionTerms,
} from "./types.js";
export {
  confirmElsewhere,
  deniedWord,
  foundInOtherForms,
  missingTerms,
  numbersElsewhere,
  partialDrop,
  partialTerms,
  SUPPORT_THRESHOLD,
  shareFound,
  tellElsewhere,
  tooLittleSupport,
  wrongSource,
} from "./verdicts.js";
