import {
  type AnswerCheckOptions,
  type AnswerResult,
  type Range,
  type Source,
  splitAnswerClaims,
} from "../../core/index.js";
import type { GenerateStream } from "../../models/index.js";
import { answerResultToWire, checkAnswerYielding } from "../check-answer.js";
import type { CreateObserver } from "../claim-events.js";

/** The sentence events of one prose create: a stream for each call, and the verdicts once a call is used. */
export interface SentenceEvents {
  /** The stream to give the next call; from the second call on it first reports an `attempt`. */
  nextCall(): GenerateStream;
  /**
   * The check of the used call's whole answer (the result), after reporting the claims no earlier event
   * reported: those after the last sentence checked while streaming (all of them, for a gateway that could
   * not stream).
   */
  settle(answer: string, signal?: AbortSignal): Promise<AnswerResult>;
}

/**
 * Told of each piece of the answer once it is checked, in answer order, the pieces together the whole answer:
 * the sentences closed while streaming, then, when the model has finished, the rest (checked on its own).
 */
export type PieceListener = (piece: string, checked: AnswerResult) => void;

/**
 * Streamed checks together may read at most this many times the characters of the sources and the answer so
 * far: each check indexes the sources anew, so with large sources the sentences are checked in fewer,
 * larger pieces (and whatever is left once the budget is spent, at the end). Linear in sources plus answer.
 */
export const STREAM_CHECK_WORK_FACTOR = 8;

// What may close a sentence or a line. Once one has arrived, the text is split again (by the answer's own
// splitter) each time another arrives or the text still open grows by a quarter: a closed sentence is checked
// once the next one has begun, and splitting stays linear in the answer.
const CLOSES = /[.!?。！？\n]/u;
const REGROWTH = 4;

/**
 * Checks the sentences of a prose answer as the model's stream closes them: the text is buffered, and each
 * time a sentence or line ends, the sentences before the one still being written are checked (`checkAnswer`
 * on that piece of the answer, with its ranges moved to the whole answer's) and reported in answer order, a
 * `claim` per citation and an `unsupported` per dropped sentence. A sentence's verdict depends only on it,
 * the sources and the question, so it is the verdict of the whole answer's check. One check runs at a time;
 * sentences closed meanwhile are checked together.
 */
export function createSentenceEvents(
  sources: readonly Source[],
  options: AnswerCheckOptions,
  observer: CreateObserver,
  signal?: AbortSignal,
  onPiece?: PieceListener,
): SentenceEvents {
  const sourceChars = sources.reduce((total, source) => total + source.text.length, 0);
  let calls = 0;
  let buffer = "";
  /** The answer's offset up to which sentences were reported. */
  let reported = 0;
  let work = 0;
  /** Whether something that may close a sentence arrived after the last split. */
  let armed = false;
  let splitAt = 0;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: unknown;

  const schedule = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await checkClosed();
      } while (again);
    })()
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        running = undefined;
      });
  };

  const checkClosed = async (): Promise<void> => {
    const open = buffer.slice(reported);
    const budget = STREAM_CHECK_WORK_FACTOR * (sourceChars + buffer.length);
    if (work + open.length + sourceChars > budget) return;
    work += open.length;
    splitAt = buffer.length;
    const claims = splitAnswerClaims(open);
    const writing = claims.at(-1);
    if (claims.length < 2 || writing === undefined) return;
    const closed = open.slice(0, writing.range[0]);
    work += sourceChars + closed.length;
    const checked = await checkAnswerYielding(sources, closed, options, signal);
    report(checked, reported);
    onPiece?.(closed, checked);
    reported += closed.length;
    armed = CLOSES.test(buffer.slice(reported));
  };

  const report = (result: AnswerResult, offset: number, from = 0): void => {
    const shift = (range: Range): Range => [range[0] + offset, range[1] + offset];
    const wire = answerResultToWire({
      ...result,
      citations: result.citations.map((citation) => ({
        ...citation,
        answerRange: shift(citation.answerRange),
      })),
      unsupported: result.unsupported.map((entry) => ({ ...entry, answerRange: shift(entry.answerRange) })),
    });
    const events = [
      ...wire.citations.map((citation) => ({ at: citation.answer_range?.[0] ?? 0, claim: citation })),
      ...wire.unsupported.map((entry) => ({ at: entry.answer_range?.[0] ?? 0, unsupported: entry })),
    ]
      .filter((event) => event.at >= from)
      // Stable: a claim's citations keep their order.
      .sort((a, b) => a.at - b.at);
    for (const event of events) {
      if ("claim" in event) observer.progress({ type: "claim", citation: event.claim });
      else observer.progress({ type: "unsupported", unsupported: event.unsupported });
    }
  };

  return {
    nextCall() {
      calls += 1;
      if (calls > 1) observer.progress({ type: "attempt", attempt: calls });
      buffer = "";
      reported = 0;
      work = 0;
      armed = false;
      splitAt = 0;
      return {
        onOpen: () => observer.open(),
        onText: (text) => {
          buffer += text;
          const closes = CLOSES.test(text);
          if (closes) armed = true;
          if (closes || (armed && (buffer.length - splitAt) * REGROWTH >= buffer.length - reported)) {
            schedule();
          }
        },
      };
    },
    async settle(answer, settleSignal) {
      while (running !== undefined) await running;
      if (failure !== undefined) throw failure;
      // The stream's text is a prefix of the answer; should it not be, the whole answer is reported.
      const from = answer.startsWith(buffer) ? reported : 0;
      const result = await checkAnswerYielding(sources, answer, options, settleSignal ?? signal);
      report(result, 0, from);
      if (onPiece !== undefined && from < answer.length) {
        const rest = answer.slice(from);
        onPiece(rest, await checkAnswerYielding(sources, rest, options, settleSignal ?? signal));
      }
      return result;
    },
  };
}
