export { aggregateCases, type CaseScore, type EvalAggregate } from "./aggregate.js";
export { checkNumbers } from "./number-check.js";
export { addSourceMarker } from "./source-marker.js";
export {
  assembleClaims,
  type ClaimVerdict,
  judgeClaims,
  type SourcesInput,
  verifyClaims,
} from "./verify-claims.js";
