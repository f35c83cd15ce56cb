import type { Source } from "../core/index.js";
import type { ChatMessage } from "../models/index.js";

/** The sources as the model reads them: each in a `<source id="…">` block. */
export function formatSources(sources: readonly Source[]): string {
  return sources
    .map((source) => `<source id=${JSON.stringify(source.id)}>\n${source.text}\n</source>`)
    .join("\n\n");
}

const claimsInstructions = `You answer only from the sources below. Reply with JSON only, in this shape:
{"claims": [{"claim": "<one fact, as a sentence>", "quote": "<text copied from the source>", "source": "<source id>"}]}
Rules:
- One fact per claim. Every claim needs a quote; make no claim without one.
- Copy each quote character for character from the named source: same words, case, punctuation and numbers. Do not paraphrase, shorten with "...", or join text from two places.
- "source" is the id of the source the quote is copied from.
- If the sources do not answer the question, reply {"claims": []}.`;

/** Messages for a create attempt: instructions and sources first, then the caller's messages in order. */
export function buildClaimsMessages(
  sources: readonly Source[],
  messages: readonly ChatMessage[],
): ChatMessage[] {
  return [
    { role: "system", content: `${claimsInstructions}\n\nSources:\n${formatSources(sources)}` },
    ...messages,
  ];
}

/** Tells the model which quotes failed and why, for a retry. */
export function buildRetryFeedback(
  previousOutput: string,
  failures: readonly { quote: string; source: string; reason: string }[],
): ChatMessage[] {
  const why: Record<string, string> = {
    quote_not_found: "this text does not occur in that source",
    unknown_source: "no source has that id",
    number_not_found: "a number in the claim is not in the cited source (or not in the cell the claim names)",
  };
  const lines = failures.map(
    (failure) =>
      `- quote ${JSON.stringify(failure.quote)} from source ${JSON.stringify(failure.source)}: ${why[failure.reason] ?? failure.reason}`,
  );
  return [
    { role: "assistant", content: previousOutput },
    {
      role: "user",
      content: `These claims could not be verified:\n${lines.join("\n")}\nAnswer again with the same JSON shape. Copy quotes exactly from the sources, and drop any claim you cannot support with a quote.`,
    },
  ];
}

/** Asks once more for valid JSON after unusable output. */
export function buildReask(previousOutput: string, problem: string): ChatMessage[] {
  return [
    { role: "assistant", content: previousOutput },
    {
      role: "user",
      content: `Your reply could not be used: ${problem}. Reply again with JSON only, in the shape asked for.`,
    },
  ];
}

/** Messages for extract: each field as an exact substring of a source, or null. */
export function buildFieldsMessages(
  sources: readonly Source[],
  schema: Readonly<Record<string, string>>,
): ChatMessage[] {
  const fieldLines = Object.entries(schema).map(
    ([name, description]) => `- ${JSON.stringify(name)}: ${description}`,
  );
  return [
    {
      role: "system",
      content: `You extract fields from the sources below. Reply with JSON only, in this shape:
{"fields": {"<name>": {"value": "<text copied from a source>" or null, "source": "<source id>" or null}}}
Each value must be copied character for character from one source. Use null when no source holds the value.

Sources:
${formatSources(sources)}`,
    },
    { role: "user", content: `Fields:\n${fieldLines.join("\n")}` },
  ];
}

/** Messages for the flagged plain answer of `allow_ungrounded`. */
export function buildAnswerMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        "Answer the question briefly. Your answer could not be checked against sources; say so if you are unsure.",
    },
    ...messages,
  ];
}
