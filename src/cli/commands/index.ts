export { defineAskCommand } from "./ask.js";
export { type AnswerCheckFlags, runAnswerCheck, runCheckCommand } from "./check.js";
export { defineEvalCommand } from "./eval.js";
export { defineExtractCommand } from "./extract.js";
export { offsetsOption, partialOption } from "./options.js";
export { environmentOnlySettings, type ServeFlags } from "./serve-settings.js";
