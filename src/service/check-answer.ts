import {
  type AnswerCheckOptions,
  type AnswerResult,
  answerCheckSteps,
  type PreparedAnswerSources,
  type Source,
  type StepCounter,
} from "../core/index.js";
import { ServiceError } from "../errors/index.js";
import { CLAIM_CHECK_SLICE_WORK, MAX_ANSWER_BEST_SPAN_CHARS, MAX_ANSWER_CLAIMS } from "../limits.js";
import { runStepsYielding } from "../models/index.js";
import type { CheckResult } from "../wire/index.js";

/** What a check request checks: claims with quotes, or a plain answer. */
export type CheckInput = { kind: "claims" } | { kind: "answer"; answer: string };

/** Throws `invalid_request` unless exactly one of `claims` and `answer` is present. */
export function checkInputOf(body: { claims?: unknown; answer?: unknown }): CheckInput {
  const hasClaims = body.claims !== undefined;
  const hasAnswer = body.answer !== undefined;
  if (hasClaims === hasAnswer) {
    throw new ServiceError(
      "invalid_request",
      hasClaims
        ? 'The request has both "claims" and "answer"; send exactly one: "claims" (claims with quotes) or "answer" (a plain answer with citation markers).'
        : 'The request has neither "claims" nor "answer"; send exactly one: "claims" (claims with quotes) or "answer" (a plain answer with citation markers).',
      { param: hasClaims ? "answer" : "claims" },
    );
  }
  return hasAnswer ? { kind: "answer", answer: body.answer as string } : { kind: "claims" };
}

/** The words of the user's messages: what answer mode treats as context. */
export function questionOf(messages: readonly { role: string; content: string }[] | undefined): string[] {
  return (messages ?? []).filter((message) => message.role === "user").map((message) => message.content);
}

/** Whose answer a check reads, and how much of the claim cap earlier checks of the same answer used. */
export interface AnswerCheckLimits {
  /** `caller` (default): the request's `answer`; `model`: a model's prose answer (create, eval). */
  author?: "caller" | "model" | undefined;
  /** Claims and clauses already read from the same answer (a streamed answer is checked in pieces). */
  clausesBefore?: number | undefined;
  /** Where the check adds its steps (tests that bound the checking work). */
  counter?: StepCounter | undefined;
}

/**
 * `checkAnswer` with a turn of the event loop after each slice of steps (`ANSWER_SLICE_CHARS` characters of
 * claims' worth), so a 4 MiB answer never holds the event loop for long. `turn` is for tests that count
 * turns. An answer of more than `MAX_ANSWER_CLAIMS` claims and clauses (with `clausesBefore`) is refused
 * before its check: the caller's as `invalid_request` naming `answer`, a model's as `extraction_failed`
 * (the model's output is what is too large).
 */
export async function checkAnswerYielding(
  sources: readonly Source[] | PreparedAnswerSources,
  answer: string,
  options: AnswerCheckOptions,
  signal?: AbortSignal,
  turn?: () => Promise<unknown>,
  limits: AnswerCheckLimits = {},
): Promise<AnswerResult> {
  const left = MAX_ANSWER_CLAIMS - (limits.clausesBefore ?? 0);
  const bounded = { ...options, maxClaims: left, maxBestSpanChars: MAX_ANSWER_BEST_SPAN_CHARS };
  const result = await runStepsYielding(
    answerCheckSteps(sources, answer, bounded, ANSWER_SLICE_CHARS, limits.counter),
    signal,
    turn,
  );
  if ("tooManyClaims" in result) {
    const limit = (result.counted === "markers" ? 2 : 1) * MAX_ANSWER_CLAIMS;
    const count = `more than ${limit.toLocaleString("en-US")} ${result.counted}, the limit`;
    if (limits.author === "model") {
      throw new ServiceError(
        "extraction_failed",
        `The model's answer holds ${count}. Ask for a shorter answer (max_tokens, or a narrower question).`,
      );
    }
    throw new ServiceError("invalid_request", `"answer" holds ${count}. Check a long answer in parts.`, {
      param: "answer",
    });
  }
  return result;
}

// The support search reads a few dozen entries per character of a claim, so a slice is a fraction of a
// claim check's work budget.
const ANSWER_SLICE_CHARS = CLAIM_CHECK_SLICE_WORK / 50;

/** An answer check's result in the wire's snake_case shape (without usage). */
export function answerResultToWire(result: AnswerResult): Omit<CheckResult, "usage"> {
  return {
    text: result.text,
    citations: result.citations.map((citation) => citationToWire(citation)),
    unsupported: result.unsupported.map((entry) => unsupportedToWire(entry)),
    partial: result.partial.map(({ answerRange, ...term }) => ({ ...term, answer_range: answerRange })),
    coverage: result.coverage,
  };
}

type WireCitation = Omit<CheckResult, "usage">["citations"][number];
type WireUnsupported = Omit<CheckResult, "usage">["unsupported"][number];

/**
 * One citation of an answer check in the wire's shape (`answerResultToWire`), its `answer_range` moved by
 * `offset` (a streamed piece's place in the answer).
 */
export function citationToWire(
  { answerRange, ...citation }: AnswerResult["citations"][number],
  offset = 0,
): WireCitation {
  return { ...citation, answer_range: moved(answerRange, offset) };
}

/** One dropped claim of an answer check in the wire's shape (`answerResultToWire`), moved as `citationToWire`. */
export function unsupportedToWire(
  { answerRange, detail, ...entry }: AnswerResult["unsupported"][number],
  offset = 0,
): WireUnsupported {
  const wire = { ...entry, answer_range: moved(answerRange, offset) };
  if (detail === undefined) return wire;
  if ("foundIn" in detail) {
    const { foundIn, ...rest } = detail;
    return { ...wire, detail: { ...rest, found_in: foundIn ?? [] } };
  }
  if ("differsOnlyIn" in detail && detail.differsOnlyIn !== undefined) {
    const { differsOnlyIn, sourceText, ...rest } = detail;
    return {
      ...wire,
      detail: { ...rest, differs_only_in: differsOnlyIn, source_text: sourceText ?? "" },
    };
  }
  return { ...wire, detail };
}

const moved = (range: AnswerResult["citations"][number]["answerRange"], offset: number) =>
  offset === 0 ? range : ([range[0] + offset, range[1] + offset] as typeof range);
