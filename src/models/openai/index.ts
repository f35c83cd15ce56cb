export { createOpenAIChatGateway } from "./chat-gateway.js";
export { type EventStreamEnd, readEventStream, type StreamEvent } from "./completion-stream.js";
export { firstInvalidHeader, maskSecrets, maskURLCredentials } from "./masking.js";
