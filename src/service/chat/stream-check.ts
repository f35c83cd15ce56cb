import { isDeepStrictEqual } from "node:util";
import {
  type AnswerCheckOptions,
  type AnswerClaim,
  type AnswerResult,
  answerWithoutClaims,
  coverageOf,
  prepareAnswerSources,
  type Range,
  type Source,
  splitAnswerClaims,
} from "../../core/index.js";
import { MAX_ANSWER_BEST_SPAN_CHARS } from "../../limits.js";
import { createSentenceEvents, type PieceListener } from "../answers/index.js";
import { checkAnswerYielding } from "../check-answer.js";

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

/** One piece of the answer checked on its own: where it starts in the answer, its claims and its check. */
interface CheckedPiece {
  offset: number;
  claims: AnswerClaim[];
  result: AnswerResult;
}

/**
 * Checks a streamed answer's sentences once the stream has closed them (`createSentenceEvents`: one check at
 * a time, off the stream's read loop), so that at the stream's end only the text after the last closed
 * sentence is left to check. `onPiece` is told each checked piece in answer order (the held stream's
 * release), the last one (the rest) during `finish`.
 *
 * The assembled result equals the one-shot check because each claim's verdict depends only on the claim, the
 * sources, the question and the options, once the claims are the same: `finish` splits the whole answer
 * again (O(answer)) and assembles only when its claims are the pieces' claims moved to their offsets (a
 * marker, footnote, fence, heading or list lead-in across a piece's edge makes them differ). Coverage is
 * reckoned from the pieces' kept and judged claims, the best spans share one budget across the pieces, and
 * the text is cut from the whole answer. An acronym the answer defines counts in every sentence of it
 * (`entity_not_found` reads the whole answer), so a piece with that reason is not assembled either. Either
 * way O(sources × pieces + answer): the pieces' number is bounded by `createSentenceEvents`' work budget.
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
  const claimTally = { judged: 0, kept: 0 };
  const bestSpanBudget = { chars: MAX_ANSWER_BEST_SPAN_CHARS };
  const shared: AnswerCheckOptions = { ...options, claimTally, bestSpanBudget };
  const pieces: CheckedPiece[] = [];
  let checkedChars = 0;
  let clauses = 0;
  const keep = (piece: string, result: AnswerResult) => {
    const claims = splitAnswerClaims(piece);
    pieces.push({ offset: checkedChars, claims, result });
    checkedChars += piece.length;
    for (const claim of claims) clauses += claim.clauses.length;
  };
  const events = createSentenceEvents(
    prepared,
    shared,
    { open: () => undefined, progress: () => undefined },
    signal,
    (piece, result) => {
      keep(piece, result);
      onPiece?.(piece, result);
    },
  );
  const stream = events.nextCall();
  let finished: StreamCheck["finished"];
  return {
    onText(text) {
      pending += text;
      if (pending.length < batchChars) return;
      stream.onText(pending);
      pending = "";
    },
    get finished() {
      return finished;
    },
    async finish(answer, finishSignal = signal) {
      await events.idle();
      const rest = answer.slice(checkedChars);
      if (rest !== "") {
        const result = await checkAnswerYielding(prepared, rest, shared, finishSignal, undefined, {
          author: "model",
          clausesBefore: clauses,
        });
        keep(rest, result);
        onPiece?.(rest, result);
      }
      const assembled = assemble(answer, pieces, claimTally);
      if (assembled !== undefined) {
        finished = { path: "assembled", checkedChars: rest.length };
        return assembled;
      }
      finished = { path: "whole", checkedChars: rest.length + answer.length };
      return checkAnswerYielding(prepared, answer, options, finishSignal, undefined, { author: "model" });
    },
  };
}

/**
 * The whole answer's check from its pieces' checks, or undefined when the pieces' claims are not the whole
 * answer's (or a piece names a missing entity, which the whole answer's acronyms might have named). O(answer).
 */
function assemble(
  answer: string,
  pieces: readonly CheckedPiece[],
  tally: { judged: number; kept: number },
): AnswerResult | undefined {
  if (pieces.some((piece) => piece.result.unsupported.some((entry) => entry.reason === "entity_not_found")))
    return undefined;
  const whole = splitAnswerClaims(answer);
  let next = 0;
  for (const piece of pieces) {
    for (const claim of piece.claims) {
      const same = whole[next];
      if (same === undefined || !sameClaim(same, claim, piece.offset)) return undefined;
      next += 1;
    }
  }
  if (next !== whole.length) return undefined;
  const result: AnswerResult = { text: "", citations: [], unsupported: [], partial: [], coverage: 0 };
  for (const { offset, result: part } of pieces) {
    for (const citation of part.citations)
      result.citations.push({ ...citation, answerRange: shift(citation.answerRange, offset) });
    for (const entry of part.unsupported)
      result.unsupported.push({ ...entry, answerRange: shift(entry.answerRange, offset) });
    for (const term of part.partial)
      result.partial.push({ ...term, answerRange: shift(term.answerRange, offset) });
  }
  result.text = answerWithoutClaims(
    answer,
    result.unsupported.map((entry) => entry.answerRange),
  );
  result.coverage = coverageOf(tally.kept, tally.judged);
  return result;
}

function shift([start, end]: Range, offset: number): Range {
  return [start + offset, end + offset];
}

// Every field `sameClaim` compares: a field added to a claim, clause or marker fails the type check here until
// it is compared too.
const comparedFields: {
  claim: Record<keyof AnswerClaim, true>;
  clause: Record<keyof AnswerClaim["clauses"][number], true>;
  marker: Record<keyof AnswerClaim["clauses"][number]["markers"][number], true>;
} = {
  claim: { range: true, text: true, clauses: true, blockQuote: true, framing: true },
  clause: { range: true, text: true, masked: true, markers: true },
  marker: { start: true, end: true, text: true, names: true },
};
void comparedFields;

/** Whether `whole` is `piece` moved by `offset`: every field of the claim, its clauses and their markers. */
function sameClaim(whole: AnswerClaim, piece: AnswerClaim, offset: number): boolean {
  const sameRange = (a: Range, b: Range) => a[0] === b[0] + offset && a[1] === b[1] + offset;
  if (
    !sameRange(whole.range, piece.range) ||
    whole.text !== piece.text ||
    whole.blockQuote !== piece.blockQuote ||
    whole.framing !== piece.framing ||
    whole.clauses.length !== piece.clauses.length
  )
    return false;
  return whole.clauses.every((clause, index) => {
    const other = piece.clauses[index] as AnswerClaim["clauses"][number];
    return (
      sameRange(clause.range, other.range) &&
      clause.text === other.text &&
      clause.masked === other.masked &&
      clause.markers.length === other.markers.length &&
      clause.markers.every((marker, at) => {
        const mark = other.markers[at] as (typeof other.markers)[number];
        return (
          marker.start === mark.start + offset &&
          marker.end === mark.end + offset &&
          marker.text === mark.text &&
          isDeepStrictEqual(marker.names, mark.names)
        );
      })
    );
  });
}
