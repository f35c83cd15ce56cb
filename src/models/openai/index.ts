export { createOpenAIChatGateway } from "./chat-gateway.js";
export { firstInvalidHeader, maskSecrets, maskURLCredentials } from "./masking.js";
