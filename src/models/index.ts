export { createModelBackend, type ModelBackendSettings } from "./create-model.js";
export { maskSecrets } from "./openai/index.js";
export type { ChatMessage, Gateway, GenerateRequest, GenerateStream, TokenUsage } from "./types.js";
