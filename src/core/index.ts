export { checkNumbers } from "./claims/number-check.js";
export { addSourceMarker } from "./claims/source-marker.js";
export {
  assembleClaims,
  type ClaimVerdict,
  judgeClaims,
  type SourcesInput,
  verifyClaims,
} from "./claims/verify-claims.js";
export { verifyFields } from "./fields/verify-fields.js";
export { memoizePerSource, type PreparedSource, prepareSources } from "./prepared-source.js";
export { findQuote } from "./quotes/find-quote.js";
export type * from "./types.js";
