export { type AskOutcome, renderAskResult } from "./ask-result.js";
export { shouldUseColor } from "./color.js";
export { runWithErrorLine } from "./errors.js";
export { renderExtractResult } from "./extract-result.js";
