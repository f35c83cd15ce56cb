import type { ChatMessage, Gateway, GenerateRequest, GenerateTask, TokenUsage } from "../types.js";
import { findClaimSentences } from "./claim-sentences.js";
import { findFieldValues } from "./field-values.js";
import { countTokens } from "./terms.js";

/** The model id that selects the built-in local model. */
export const LOCAL_MODEL_ID = "local";

const QUESTION_PREVIEW_LENGTH = 120;

/**
 * The built-in local model: extractive, deterministic and in process. For claims it quotes the source
 * sentences that best match the latest user message (see `findClaimSentences`); for fields it copies
 * the labelled value that best matches each field (see `findFieldValues`); for a plain answer it says
 * that it answers only from the sources. Its output follows the model output contract exactly, so the
 * service checks it like any other model's.
 */
export function createLocalModel(): Gateway {
  return {
    async generate(request: GenerateRequest) {
      request.signal?.throwIfAborted();
      const pieces = respondInPieces(request.task);
      const content = pieces.join("");
      if (request.stream !== undefined) {
        request.stream.onOpen();
        // One piece per claim object, as a remote model's stream would close them one by one.
        for (const piece of pieces) request.stream.onText(piece);
      }
      return { content, usage: countUsage(request, content) };
    },
  };
}

/** The reply in the pieces a stream delivers: for claims, `{"claims":[`, each claim and `,`, then `]}`. */
function respondInPieces(task: GenerateTask): string[] {
  return task.kind === "claims" ? claimPieces(task) : [respond(task)];
}

function claimPieces(task: Extract<GenerateTask, { kind: "claims" }>): string[] {
  const claims = findClaimSentences(task.sources, latestUserMessage(task.messages)).map((sentence) =>
    JSON.stringify({ claim: sentence.text, quote: sentence.text, source: sentence.source }),
  );
  // Joined, these are exactly JSON.stringify({ claims }).
  return ['{"claims":[', ...claims.flatMap((claim, index) => (index === 0 ? [claim] : [",", claim])), "]}"];
}

function respond(task: GenerateTask): string {
  switch (task.kind) {
    case "claims":
      return claimPieces(task).join("");
    case "fields": {
      const fields = Object.fromEntries(
        findFieldValues(task.sources, task.schema).map(({ name, found }) => [
          name,
          found === null ? { value: null, source: null } : { value: found.value, source: found.source },
        ]),
      );
      return JSON.stringify({ fields });
    }
    case "answer":
      return plainAnswer(latestUserMessage(task.messages));
  }
}

function latestUserMessage(messages: readonly ChatMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return message.content;
  }
  return "";
}

function plainAnswer(question: string): string {
  const oneLine = question.replace(/\s+/g, " ").trim();
  if (oneLine === "") {
    return "I answer only from the supplied sources, and I could not ground an answer in them.";
  }
  const preview =
    oneLine.length > QUESTION_PREVIEW_LENGTH
      ? `${oneLine.slice(0, QUESTION_PREVIEW_LENGTH).trimEnd()}…`
      : oneLine;
  return `I answer only from the supplied sources, and I could not ground an answer to "${preview}" in them.`;
}

/**
 * Tokens of the prompt (the request's messages, or the task's own text when it carries none) and of
 * the output, counted by `countTokens`.
 */
function countUsage(request: GenerateRequest, content: string): TokenUsage {
  const promptTexts =
    request.messages.length > 0
      ? request.messages.map((message) => message.content)
      : taskTexts(request.task);
  const promptTokens = promptTexts.reduce((sum, text) => sum + countTokens(text), 0);
  const completionTokens = countTokens(content);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

function taskTexts(task: GenerateTask): string[] {
  switch (task.kind) {
    case "claims":
      return [
        ...task.sources.map((source) => source.text),
        ...task.messages.map((message) => message.content),
      ];
    case "fields":
      return [...task.sources.map((source) => source.text), ...Object.entries(task.schema).flat()];
    case "answer":
      return task.messages.map((message) => message.content);
  }
}
