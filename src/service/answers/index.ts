// Create with a plain answer (`answer_format: "text"`): prose with citation markers, checked by answer mode.
export { createProseAnswer, type ProseOutcome, type ProseRequest } from "./create-prose.js";
export { buildProseMessages, buildProseRetryFeedback, proseSystemPrompt } from "./prose-prompts.js";
export {
  createSentenceEvents,
  type PieceListener,
  type SentenceEvents,
  STREAM_CHECK_WORK_FACTOR,
} from "./sentence-events.js";
