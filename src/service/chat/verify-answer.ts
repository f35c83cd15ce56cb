import {
  type AnswerCheckOptions,
  type AnswerResult,
  type PreparedAnswerSources,
  prepareAnswerSources,
  type StepCounter,
} from "../../core/index.js";
import { ServiceError } from "../../errors/index.js";
import { MAX_ANSWER_CHARS } from "../../limits.js";
import { contentText } from "../../models/index.js";
import {
  convertResultRanges,
  sourceTexts,
  type VerificationReport,
  type VerificationRequest,
} from "../../wire/index.js";
import { answerResultToWire, checkAnswerYielding, questionOf } from "../check-answer.js";
import type { ChatSources } from "./chat-sources.js";

/** The words of a chat's user messages, whatever shape their content has: context, not new facts. */
export function chatQuestion(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return questionOf(
    messages.flatMap((message) => {
      const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
      const text = contentText(content);
      return role === "user" && text !== undefined ? [{ role, content: text }] : [];
    }),
  );
}

/**
 * The answer check's options of a `verification` object: the checks made with them (a streamed answer's
 * pieces) read the question once.
 */
export function answerOptionsOf(verification: VerificationRequest, messages: unknown): AnswerCheckOptions {
  return {
    mode: verification.mode,
    checkNumbers: verification.check_numbers,
    explain: verification.explain,
    partial: verification.partial,
    question: chatQuestion(messages),
    questionTerms: {},
  };
}

/**
 * Checks a model's answer against the chat's sources as check's answer mode does (`checkAnswer`, the user's
 * messages as the question) and reports it. An answer longer than check takes is refused as the gateway's
 * fault. O(answer + sources + messages), with turns of the event loop between slices.
 */
export function verifyChatAnswer(
  answer: string,
  found: ChatSources,
  verification: VerificationRequest,
  messages: unknown,
  signal?: AbortSignal,
): Promise<VerificationReport> {
  return checkChatAnswer(answer, found, verification, answerOptionsOf(verification, messages), signal);
}

/**
 * Checks several answers (a guardrail call's `texts`) against one chat's sources, each as `verifyChatAnswer`
 * does, the sources indexed and the question read once for all of them; stops with `signal`'s reason once it
 * aborts (the caller left). O(texts + answers + sources + messages). `counter` adds the checks' steps (tests).
 */
export async function verifyChatAnswers(
  answers: readonly string[],
  found: ChatSources,
  verification: VerificationRequest,
  messages: unknown,
  signal?: AbortSignal,
  counter?: StepCounter,
): Promise<VerificationReport[]> {
  const prepared = prepareAnswerSources(found.sources);
  // One `questionTerms` holder for every answer: the first check reads the question, the others reuse it.
  const options = answerOptionsOf(verification, messages);
  const reports: VerificationReport[] = [];
  for (const answer of answers) {
    signal?.throwIfAborted();
    reports.push(await checkChatAnswer(answer, found, verification, options, signal, prepared, counter));
  }
  return reports;
}

/** `verifyChatAnswer` with its check's options made by the caller, and the sources prepared once by it. */
async function checkChatAnswer(
  answer: string,
  found: ChatSources,
  verification: VerificationRequest,
  options: AnswerCheckOptions,
  signal?: AbortSignal,
  prepared?: PreparedAnswerSources,
  counter?: StepCounter,
): Promise<VerificationReport> {
  if (answer.length > MAX_ANSWER_CHARS) throw answerTooLong(answer.length);
  const checked = await checkAnswerYielding(prepared ?? found.sources, answer, options, signal, undefined, {
    counter,
  });
  return verificationReport(checked, found, verification, answer);
}

/** The error of an answer longer than check's `answer` limit: the gateway's fault, not the caller's. */
export function answerTooLong(chars: number): ServiceError {
  return new ServiceError(
    "gateway_error",
    `The model's answer is ${chars.toLocaleString("en-US")} characters; the most the service checks is ${MAX_ANSWER_CHARS.toLocaleString("en-US")}.`,
  );
}

/**
 * The report of a checked answer, its ranges in `verification.offsets`. It passes when no claim is unsupported, or, with `min_coverage`, when its
 * coverage reaches it; `abstained` as in create.
 */
export function verificationReport(
  checked: AnswerResult,
  found: ChatSources,
  verification: Pick<VerificationRequest, "action" | "min_coverage" | "offsets">,
  answer: string,
): VerificationReport {
  const wire = convertResultRanges(answerResultToWire(checked), verification.offsets, {
    sources: sourceTexts(found.sources),
    answer,
  });
  const minCoverage = verification.min_coverage;
  const pass = minCoverage === undefined ? wire.unsupported.length === 0 : wire.coverage >= minCoverage;
  return {
    verdict: pass ? "pass" : "fail",
    action: verification.action ?? "score",
    sources_from: found.from,
    text: wire.text,
    citations: wire.citations,
    unsupported: wire.unsupported,
    partial: wire.partial ?? [],
    coverage: wire.coverage,
    abstained: minCoverage !== undefined && minCoverage > 0 && wire.coverage < minCoverage,
  };
}

/** The `ungrounded` error of `action: "block"`, its report inside `error` (SDKs drop fields beside it). */
export function blockedAnswer(report: VerificationReport): ServiceError {
  const count = report.unsupported.length;
  return new ServiceError(
    "ungrounded",
    `The answer failed verification: ${count} of its claims ${count === 1 ? "is" : "are"} not supported by the sources (coverage ${report.coverage.toFixed(2)}). error.verification holds the report.`,
    { verification: report },
  );
}
