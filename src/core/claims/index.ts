export { aggregateCases, type CaseScore, type EvalAggregate } from "./aggregate.js";
export { describeNumberMiss } from "./describe-miss.js";
export { type ExpectedMatch, matchExpected } from "./expected-answer.js";
export {
  addSourceMarker,
  assembleClaims,
  type ClaimVerdict,
  checkNumbers,
  explainNumbers,
  judgeClaimSteps,
  judgeClaims,
  type SourcesInput,
  verifyClaims,
} from "./verify-claims.js";
