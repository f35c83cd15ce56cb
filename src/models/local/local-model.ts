import { type Source, splitsSurrogatePair } from "../../core/index.js";
import { runStepsYielding, yieldToEventLoop } from "../turns.js";
import type { ChatMessage, GenerateRequest, GenerateTask, ModelBackend, TokenUsage } from "../types.js";
import { type ClaimSentence, claimSentenceSteps } from "./claim-sentences.js";
import { fieldValueSteps } from "./field-values.js";
import { countTokens } from "./terms.js";

/** The model id that selects the built-in local model. */
export const LOCAL_MODEL_ID = "local";

const QUESTION_PREVIEW_LENGTH = 120;

/**
 * The built-in local model: extractive, deterministic and in process. For claims it quotes the source
 * sentences that best match the latest user message (see `findClaimSentences`); for fields it copies
 * the labelled value that best matches each field (see `findFieldValues`); for prose with citation markers
 * it writes the same sentences, each followed by the marker of its source; for a plain answer it says
 * that it answers only from the sources. Its output follows the model output contract exactly, so the
 * service checks it like any other model's.
 */
export function createLocalModel(): ModelBackend {
  return {
    async generate(request: GenerateRequest) {
      request.signal?.throwIfAborted();
      // It never holds the event loop for long: each call starts on a new turn (an eval's cases would
      // otherwise run back to back in microtasks), and its work is cut into steps with a turn between them.
      await yieldToEventLoop(request.signal);
      const pieces = await respondInPieces(request.task, request.signal);
      const content = pieces.join("");
      if (request.stream !== undefined) {
        request.stream.onOpen();
        // One piece per claim object (or sentence of prose), as a remote model's stream would close them.
        for (const piece of pieces) request.stream.onText(piece);
      }
      return { content, usage: await countUsage(request, content, request.signal) };
    },
  };
}

/**
 * The reply in the pieces a stream delivers: for claims, `{"claims":[`, each claim and `,`, then `]}`; for
 * prose, each sentence with its marker and what separates it from the next.
 */
async function respondInPieces(task: GenerateTask, signal: AbortSignal | undefined): Promise<string[]> {
  if (task.kind === "claims") return claimPieces(task, signal);
  if (task.kind === "prose") return prosePieces(task, signal);
  return [await respond(task, signal)];
}

async function claimPieces(
  task: Extract<GenerateTask, { kind: "claims" }>,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const sentences = await chosenSentences(task, signal);
  const claims = sentences.map((sentence) =>
    JSON.stringify({ claim: sentence.text, quote: sentence.text, source: sentence.source }),
  );
  // Joined, these are exactly JSON.stringify({ claims }).
  return ['{"claims":[', ...claims.flatMap((claim, index) => (index === 0 ? [claim] : [",", claim])), "]}"];
}

/** The source sentences that answer the task's latest user message (see `findClaimSentences`). */
function chosenSentences(
  task: { sources: Source[]; messages: ChatMessage[] },
  signal: AbortSignal | undefined,
): Promise<ClaimSentence[]> {
  return runStepsYielding(claimSentenceSteps(task.sources, latestUserMessage(task.messages)), signal);
}

/**
 * Prose with citation markers: the sentences the claims would quote, each on one line (its spaces made one)
 * and followed by the marker of its source: `[id]`, or `[n]` (its position) for an id a marker cannot
 * spell. A sentence that ends with end punctuation is followed by a space, others by a line break, so the
 * answer's sentence splitter reads the same sentences back. No sentence (an abstention) is an empty answer.
 */
async function prosePieces(
  task: Extract<GenerateTask, { kind: "prose" }>,
  signal: AbortSignal | undefined,
): Promise<string[]> {
  const sentences = await chosenSentences(task, signal);
  const position = new Map<string, number>();
  for (const [index, source] of task.sources.entries()) {
    if (!position.has(source.id)) position.set(source.id, index + 1);
  }
  return sentences.map((sentence, index) => {
    const text = sentence.text.replace(/\s+/g, " ").trim();
    const spellable = MARKER_ID.test(sentence.source) && HAS_WORD.test(sentence.source);
    const marker = spellable ? sentence.source : String(position.get(sentence.source));
    const last = index === sentences.length - 1;
    return `${text} [${marker}]${last ? "" : endsSentence(text) ? " " : "\n"}`;
  });
}

// An id a `[id]` marker can spell: one token without brackets or list separators, with a letter or digit.
const MARKER_ID = /^[^\s[\],;]{1,64}$/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
const CLOSERS = "\"'”’)]";
const END_PUNCTUATION = ".!?。！？";

/** Whether `text` ends with end punctuation, perhaps followed by closing quotes or brackets. */
function endsSentence(text: string): boolean {
  let end = text.length;
  while (end > 0 && CLOSERS.includes(text[end - 1] as string)) end--;
  return end > 0 && END_PUNCTUATION.includes(text[end - 1] as string);
}

async function respond(task: GenerateTask, signal: AbortSignal | undefined): Promise<string> {
  switch (task.kind) {
    case "claims":
      return (await claimPieces(task, signal)).join("");
    case "prose":
      return (await prosePieces(task, signal)).join("");
    case "fields": {
      const found = await runStepsYielding(fieldValueSteps(task.sources, task.schema), signal);
      const fields = Object.fromEntries(
        found.map(({ name, found }) => [
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
async function countUsage(
  request: GenerateRequest,
  content: string,
  signal: AbortSignal | undefined,
): Promise<TokenUsage> {
  const promptTexts =
    request.messages.length > 0
      ? request.messages.map((message) => message.content)
      : taskTexts(request.task);
  let promptTokens = 0;
  let charsSinceTurn = 0;
  for (const text of promptTexts) {
    // Counted in pieces cut at whitespace (where no token spans), with a turn of the event loop between
    // large pieces: a 4 MB message takes about 400 ms to count.
    for (let start = 0; start < text.length; ) {
      const end = pieceEnd(text, start);
      promptTokens += countTokens(text.slice(start, end));
      charsSinceTurn += end - start;
      start = end;
      if (charsSinceTurn >= COUNT_CHARS_PER_TURN) {
        charsSinceTurn = 0;
        await yieldToEventLoop(signal);
      }
    }
  }
  const completionTokens = countTokens(content);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** Characters of prompt text counted between two turns of the event loop (about 10 ms of work). */
const COUNT_CHARS_PER_TURN = 100_000;

/**
 * End of the piece of `text` from `start`: `COUNT_CHARS_PER_TURN` characters on, moved forward to the next
 * whitespace (a token never spans one) within 1,000 characters. Elsewhere the cut falls between two
 * characters of one run, which CJK text (one token per character) counts the same.
 */
function pieceEnd(text: string, start: number): number {
  const end = start + COUNT_CHARS_PER_TURN;
  if (end >= text.length) return text.length;
  const limit = Math.min(text.length, end + 1_000);
  for (let index = end; index < limit; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return index;
  }
  // Never cut a surrogate pair.
  return splitsSurrogatePair(text, end) ? end + 1 : end;
}

function taskTexts(task: GenerateTask): string[] {
  switch (task.kind) {
    case "claims":
    case "prose":
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
