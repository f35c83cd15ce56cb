export { addSourceMarker } from "./add-source-marker.js";
export { checkNumbers } from "./check-numbers.js";
export { findQuote } from "./find-quote.js";
export { memoizePerSource, type PreparedSource, prepareSources } from "./prepared-source.js";
export type * from "./types.js";
export {
  assembleClaims,
  type ClaimVerdict,
  judgeClaims,
  type SourcesInput,
  verifyClaims,
} from "./verify-claims.js";
export { verifyFields } from "./verify-fields.js";
