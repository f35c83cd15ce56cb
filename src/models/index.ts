export { createModelBackend, type ModelBackendSettings } from "./create-model.js";
export { maskSecrets } from "./openai/index.js";
export { modelNeedsCallerKey } from "./router.js";
export type { ChatMessage, GenerateRequest, GenerateStream, ModelBackend, TokenUsage } from "./types.js";
