// Verify inside a TypeScript app: wrap the Vercel AI SDK's `generateText` so its answer comes back only with
// claims whose quotes are found, character for character, in your sources. The check runs in process through
// the library entry (`verified-answers`): no service, no second model.
import { generateText, type LanguageModel, Output } from "ai";
import {
  type AnswerResult,
  type ClaimsResult,
  checkAnswer,
  type Source,
  verifyClaims,
} from "verified-answers";
import { z } from "zod";

/** What the model is asked for: each claim of its answer with a verbatim quote and the id of its source. */
const claimsSchema = z.object({
  claims: z.array(z.object({ claim: z.string(), quote: z.string(), source: z.string() })),
});

/** A question answered by `model` from `sources` only, every claim checked against them. */
export async function generateVerified(options: {
  model: LanguageModel;
  question: string;
  sources: Source[];
}): Promise<ClaimsResult> {
  const { output } = await generateText({
    model: options.model,
    output: Output.object({ schema: claimsSchema }),
    system:
      "Answer only from the sources. For each claim, copy a quote verbatim from one source and give that source's id.",
    prompt: promptOf(options.sources, options.question),
  });
  // Claims whose quote is not in the named source are dropped and listed in `unsupported` with the reason.
  return verifyClaims(options.sources, output.claims, { checkNumbers: true });
}

/**
 * A question answered in plain prose with `[source-id]` citations, as most apps already prompt for, the
 * answer checked sentence by sentence (answer mode): each kept sentence comes back with the span of its
 * source that supports it; a sentence without support, with a number or name no source holds, or citing the
 * wrong source is cut from `text` and listed in `unsupported` with its `answerRange`.
 */
export async function generateChecked(options: {
  model: LanguageModel;
  question: string;
  sources: Source[];
}): Promise<AnswerResult> {
  const { text } = await generateText({
    model: options.model,
    system:
      "Answer only from the sources. End each sentence with the id of its source in brackets, like [policy].",
    prompt: promptOf(options.sources, options.question),
  });
  // The question's words are context, not new facts: an answer that repeats them is not penalised.
  return checkAnswer(options.sources, text, { question: [options.question] });
}

/** The sources, each in a tagged block the model can cite by id, then the question. */
function promptOf(sources: readonly Source[], question: string): string {
  const blocks = sources.map((source) => `<source id="${source.id}">\n${source.text}\n</source>`);
  return [...blocks, `Question: ${question}`].join("\n\n");
}
