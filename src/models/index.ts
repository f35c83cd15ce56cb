export { createModelBackend, type ModelBackendSettings } from "./create-model.js";
export type { ChatMessage, Gateway, GenerateRequest, TokenUsage } from "./types.js";
