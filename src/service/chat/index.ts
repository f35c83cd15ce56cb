// The OpenAI-compatible front door's verification: sources from a chat request, the check of its answer,
// and the verified event stream.
export { type ChatSources, chatSources, type SourcesFrom } from "./chat-sources.js";
export { type ChatStreamCheck, firstChoiceText, verifiedChatStream } from "./verified-stream.js";
export {
  answerOptionsOf,
  blockedAnswer,
  chatQuestion,
  verificationReport,
  verifyChatAnswer,
  verifyChatAnswers,
} from "./verify-answer.js";
