export { checkSourceIds, checkSources, findDuplicateSourceId } from "./check-sources.js";
export type { CreateProgress } from "./claim-events.js";
export type { CreateInput, CreateOutcome } from "./create.js";
export { createVerified } from "./create.js";
export type { EvalCaseOutcome, EvalOutcome } from "./eval.js";
export { batchFatal, type EvalInput, evalVerified } from "./eval.js";
export { extractVerified } from "./extract.js";
export type { OperationContext } from "./operation-context.js";
export { usageToWire } from "./usage.js";
