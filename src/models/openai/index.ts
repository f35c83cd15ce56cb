export { createOpenAIChatGateway } from "./chat-gateway.js";
export { firstChoice } from "./completion.js";
export {
  type EventStreamEnd,
  isEventStream,
  readEventStream,
  type StreamEvent,
} from "./completion-stream.js";
export { firstInvalidHeader, maskSecrets, maskURLCredentials } from "./masking.js";
export { readBodyWithLimit } from "./transport.js";
