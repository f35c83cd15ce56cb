export { BodyBytes, invalidUtf8At, notUtf8At } from "./body-bytes.js";
export {
  createModelBackend,
  defaultGatewayName,
  gatewaysOf,
  listModelsOf,
  type ModelBackendSettings,
} from "./create-model.js";
export type {
  GatewayAuthHeader,
  GatewaySettings,
  ModelListEntry,
  ModelRoute,
  StructuredOutputLevel,
  TokenParameter,
} from "./gateways.js";
export {
  type EventStreamEnd,
  firstChoice,
  firstInvalidHeader,
  isEventStream,
  maskSecrets,
  maskURLCredentials,
  readBodyWithLimit,
  readEventStream,
  type StreamEvent,
} from "./openai/index.js";
export { contentText, relayByGenerate, textMessages } from "./relay-by-generate.js";
export { localModelId, modelNeedsCallerKey } from "./router.js";
export { nextTurn, runStepsYielding } from "./turns.js";
export type {
  ChatMessage,
  GenerateRequest,
  GenerateStream,
  GenerateTask,
  ModelBackend,
  RelayRequest,
  RelayResponse,
  TokenUsage,
} from "./types.js";
