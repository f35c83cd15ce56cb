export { aggregateCases, type CaseScore, type EvalAggregate } from "./aggregate.js";
export { type AnswerMissDetail, describeDrop, describeNumberMiss } from "./describe-miss.js";
export { type ExpectedMatch, matchExpected } from "./expected-answer.js";
export { createPendingClaims, type PendingClaims } from "./pending-claims.js";
export {
  addSourceMarker,
  assembleClaims,
  type ClaimVerdict,
  checkNumbers,
  explainNumbers,
  judgeClaimSlices,
  judgeClaimSteps,
  judgeClaims,
  type NumberCheck,
  type SourcesInput,
  verifyClaims,
} from "./verify-claims.js";
