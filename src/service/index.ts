export { checkSourceIds, checkSources, findDuplicateSourceId } from "./check-sources.js";
export { createVerified } from "./create.js";
export type { EvalCaseOutcome } from "./eval.js";
export { evalVerified } from "./eval.js";
export { extractVerified } from "./extract.js";
export type { OperationContext } from "./operation-context.js";
export { usageToWire } from "./usage.js";
