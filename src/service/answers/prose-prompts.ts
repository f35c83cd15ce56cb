import type { AnswerUnsupported, Source } from "../../core/index.js";
import type { ChatMessage } from "../../models/index.js";
import { formatSources } from "../prompts.js";

const proseInstructions = `You answer only from the sources below, in plain prose. After each sentence, cite the source it comes from with the source's id in square brackets, like [doc-a]; cite two sources as [doc-a][doc-b].
Rules:
- State only what the sources say, and cite every sentence.
- Write names, numbers and dates exactly as the sources write them.
- Put text in double quotes only when you copy it character for character from the cited source.
- If the sources do not answer the question, say so in one short sentence.`;

/** The system message of a prose answer: the citation instruction and the sources, each with its id. */
export function proseSystemPrompt(sources: readonly Source[]): string {
  return `${proseInstructions}\n\nSources:\n${formatSources(sources)}`;
}

/** Messages for a prose attempt (`answer_format: "text"`): instructions and sources, then the caller's messages. */
export function buildProseMessages(
  sources: readonly Source[],
  messages: readonly ChatMessage[],
): ChatMessage[] {
  return [{ role: "system", content: proseSystemPrompt(sources) }, ...messages];
}

/** Tells the model which sentences of its answer were dropped and why, for a retry. */
export function buildProseRetryFeedback(
  previousAnswer: string,
  dropped: readonly AnswerUnsupported[],
): ChatMessage[] {
  const lines = dropped.map((entry) => `- ${JSON.stringify(entry.claim)}: ${whyDropped(entry)}`);
  return [
    { role: "assistant", content: previousAnswer },
    {
      role: "user",
      content: `These sentences of your answer could not be verified against the sources and were dropped:\n${lines.join("\n")}\nAnswer again in plain prose with [id] markers. Keep the sentences that held; fix each dropped sentence so that the source it cites says it, or leave it out.`,
    },
  ];
}

function whyDropped(entry: AnswerUnsupported): string {
  const detail = entry.detail;
  switch (entry.reason) {
    case "no_support":
      return "the cited source (or, without a marker, any source) does not say this";
    case "partial_support":
      return "the cited source says only part of this";
    case "number_not_found":
      return "a number in it is not in the source that supports it";
    case "entity_not_found":
      return detail !== undefined && "entity" in detail && detail.entity !== undefined
        ? `${JSON.stringify(detail.entity)} occurs in no source`
        : "a name, code or identifier in it occurs in no source";
    case "wrong_source": {
      const foundIn = detail !== undefined && "foundIn" in detail ? (detail.foundIn ?? []) : [];
      return foundIn.length === 0
        ? "the source it cites does not say this"
        : `the source it cites does not say this, but ${foundIn.map((id) => `[${id}]`).join(", ")} ${foundIn.length === 1 ? "does: cite that one" : "do: cite one of those"}`;
    }
    case "unknown_source":
      return "its marker names no source";
    case "quote_not_found":
      return "the text in quotation marks is not in the cited source";
  }
}
