export { aggregateCases, type CaseScore, type EvalAggregate } from "./aggregate.js";
export { type AnswerMissDetail, describeDrop, describeNumberMiss } from "./describe-miss.js";
export {
  addSourceMarker,
  assembleClaims,
  type ClaimVerdict,
  checkNumbers,
  explainNumbers,
  judgeClaimSteps,
  judgeClaims,
  type NumberCheck,
  type SourcesInput,
  verifyClaims,
} from "./verify-claims.js";
