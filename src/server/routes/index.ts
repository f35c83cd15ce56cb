export { registerChatCompletionsRoute } from "./chat-completions.js";
export { registerCheckRoute } from "./check.js";
export { registerCreateRoute } from "./create.js";
export { registerEvalRoute } from "./eval.js";
export { registerExtractRoute } from "./extract.js";
export { registerGuardrailRoutes } from "./guardrails.js";
export { registerModelsRoute } from "./models.js";
