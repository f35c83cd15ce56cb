export { defineAskCommand } from "./ask.js";
export { runCheckCommand } from "./check.js";
export { type AnswerCheckFlags, runAnswerCheck } from "./check-answer.js";
export { defineEvalCommand } from "./eval.js";
export { defineExtractCommand } from "./extract.js";
export { environmentOnlySettings, type ServeFlags } from "./serve-settings.js";
