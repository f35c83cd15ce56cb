export { createOpenAIChatGateway } from "./chat-gateway.js";
export { maskSecrets } from "./masking.js";
