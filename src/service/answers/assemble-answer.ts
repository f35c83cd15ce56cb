import { type AnswerResult, answerWithoutClaims, coverageOf, type Range } from "../../core/index.js";

/** One piece of an answer checked on its own: where it starts in the answer, its length, and its check. */
export interface CheckedPiece {
  offset: number;
  chars: number;
  result: AnswerResult;
  /** Its check left `text` empty (`withoutText`): the answer's text is cut here, from its entries. */
  withoutText?: boolean | undefined;
}

// A footnote's definition (`[^1]:`), and a word the checks could read as an acronym (two capitals, a dot
// between them or not: `keysOfWord`). Each tries a bounded window at a position: linear in the text.
const FOOTNOTE_DEFINITION = /\[\^[^\]\s]{1,64}\]:/u;
const TWO_CAPITALS = /\p{Lu}\.?\p{Lu}/u;

/**
 * Whether a check of the whole answer could read the pieces otherwise than their own checks did: the two
 * readings that stay answer-wide when an answer is cut where both parts split as the whole does (`findCut`).
 * A footnote marker (`[^1]`) is resolved by the definition lines of the whole answer, and an acronym the
 * answer spells out in one sentence counts as a name in every other (`entity_not_found` reads the whole
 * answer's capitalised runs). So, when two pieces or more were checked: the answer defines a footnote, or a
 * piece dropped a sentence holding a word in capitals as `entity_not_found`. O(answer).
 */
export function readsAnswerWide(answer: string, pieces: readonly CheckedPiece[]): boolean {
  if (pieces.length < 2) return false;
  return (
    FOOTNOTE_DEFINITION.test(answer) ||
    pieces.some((piece) =>
      piece.result.unsupported.some(
        (entry) => entry.reason === "entity_not_found" && TWO_CAPITALS.test(entry.claim),
      ),
    )
  );
}

/**
 * The whole answer's check from the checks of its pieces (in answer order, together the whole answer, each
 * cut where both parts split as the whole does, and not `readsAnswerWide`): their citations, dropped
 * sentences and partial terms moved to the answer's offsets, the text cut from the whole answer, and the
 * coverage from `tally`, the claims the pieces' checks judged and kept (`claimTally`). One piece that is the
 * whole answer (an answer the stream could not cut), checked with its text, is its check as it is: nothing is
 * copied or cut again.
 * O(answer + entries).
 */
export function assembleAnswer(
  answer: string,
  pieces: readonly CheckedPiece[],
  tally: { judged: number; kept: number },
): AnswerResult {
  const [first] = pieces;
  if (
    pieces.length === 1 &&
    first?.offset === 0 &&
    first.chars === answer.length &&
    first.withoutText !== true
  )
    return first.result;
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
  return offset === 0 ? [start, end] : [start + offset, end + offset];
}
