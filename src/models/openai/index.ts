export { createOpenAIChatGateway } from "./chat-gateway.js";
