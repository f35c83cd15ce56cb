export { proseSystemPrompt } from "./answers/index.js";
export {
  blockedAnswer,
  type ChatSources,
  chatSources,
  firstChoiceText,
  verificationReport,
  verifiedChatStream,
  verifyChatAnswer,
  verifyChatAnswers,
} from "./chat/index.js";
export {
  answerResultToWire,
  type CheckInput,
  checkAnswerYielding,
  checkInputOf,
  questionOf,
} from "./check-answer.js";
export { checkSourceIds, checkSources } from "./check-sources.js";
export type { CreateProgress } from "./claim-events.js";
export { type CreateInput, type CreateOutcome, createVerified } from "./create.js";
export {
  batchFatal,
  type EvalCaseOutcome,
  type EvalInput,
  type EvalOutcome,
  evalVerified,
  resultCharsAtLeast,
} from "./eval.js";
export { extractVerified } from "./extract.js";
export { judgeClaimsYielding, verifyClaimsYielding } from "./judge-yielding.js";
export type { OperationContext } from "./operation-context.js";
export { usageToWire } from "./usage.js";
