import {
  type AnswerCheckOptions,
  type AnswerResult,
  prepareAnswerSources,
  type Source,
} from "../../core/index.js";
import { createSentenceEvents, type PieceListener } from "../answers/index.js";

/**
 * Characters of a stream handed to the sentence checks at once (when sentences are not held): one check per
 * batch rather than per sentence, and at most a batch and a sentence left to check when the stream ends.
 */
export const STREAM_CHECK_BATCH_CHARS = 512;

/** A streamed answer checked as it arrives: its text as it comes, then the check of the whole answer. */
export interface StreamCheck {
  /** The next piece of the answer's text, as the stream gives it. */
  onText(text: string): void;
  /**
   * The check of the whole answer (`answer`: every piece given to `onText`, joined), deep-equal to one check of
   * it: the sentences checked while streaming, the rest checked now, assembled; or, when the pieces could
   * have read differently in the whole answer, the whole answer checked now.
   */
  finish(answer: string, signal?: AbortSignal): Promise<AnswerResult>;
  /**
   * How the last `finish` came to its result: assembled from the pieces, or the whole answer checked again,
   * and how many characters it checked (the rest after the last closed sentence, or the whole answer).
   */
  readonly finished: { path: "assembled" | "whole"; checkedChars: number } | undefined;
}

/**
 * Checks a streamed answer's sentences once the stream has closed them (`createSentenceEvents`: one check at
 * a time, off the stream's read loop), so that at the stream's end only the text after the last closed
 * sentence is left to check, and the result is assembled from the pieces' checks (`settle`: deep-equal to one
 * check of the whole answer, which is checked again only where the pieces could read otherwise in it).
 * `onPiece` is told each checked piece in answer order (the held stream's release), the last one (the rest)
 * during `finish`. O(sources × pieces + answer): the pieces' number is bounded by `createSentenceEvents`' work
 * budget.
 */
export function createStreamCheck(
  sources: readonly Source[],
  options: AnswerCheckOptions,
  signal?: AbortSignal,
  onPiece?: PieceListener,
): StreamCheck {
  // Indexed once for every piece's check (and the rest's, and a whole check's).
  const prepared = prepareAnswerSources(sources);
  // Held sentences go out as soon as each is checked; otherwise text is checked in batches, which costs a
  // stream about what one check of its answer costs, not a check's fixed cost per sentence.
  const batchChars = onPiece === undefined ? STREAM_CHECK_BATCH_CHARS : 0;
  let pending = "";
  const events = createSentenceEvents(
    prepared,
    options,
    { open: () => undefined, progress: () => undefined },
    signal,
    onPiece,
  );
  const stream = events.nextCall();
  return {
    onText(text) {
      pending += text;
      if (pending.length < batchChars) return;
      stream.onText(pending);
      pending = "";
    },
    get finished() {
      return events.settled;
    },
    // The text still pending is a part of `answer` after the stream's: `settle` checks it with the rest.
    finish: (answer, finishSignal = signal) => events.settle(answer, finishSignal),
  };
}
