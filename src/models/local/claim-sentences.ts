import { type Source, splitSentences } from "../../core/index.js";
import { MAX_LOCAL_QUESTION_CHARS } from "../../limits.js";
import { rankSentencesBm25 } from "./bm25.js";
import { runSteps, type Steps } from "./run-steps.js";
import { extractTerms } from "./terms.js";

/**
 * Characters of source text read between two steps of `claimSentenceSteps`: about 25 ms of work for CJK
 * text (the slowest to split into words) on a loaded 2-core machine, well under the 100 ms `/healthz` goal.
 */
export const CLAIM_CHARS_PER_STEP = 8_000;

/** A source sentence chosen as a claim. Invariant: `text === source text.slice(start, end)`. */
export interface ClaimSentence {
  source: string;
  text: string;
  start: number;
  end: number;
}

/** How many sentences to return at most, and the relevance floor. */
export interface ClaimSelection {
  /** At most this many sentences. */
  maxClaims: number;
  /** A sentence must score at least this fraction of the best sentence's BM25 score. */
  minShareOfTopScore: number;
  /** A sentence must match at least this share of the question's IDF weight (see `SentenceRank`). */
  minQuestionCoverage: number;
}

/**
 * The local model's defaults: up to 3 sentences, each scoring at least half the best score and matching
 * at least 40% of the question's weight, so a sentence that only shares one of three equally rare words
 * with the question (often just the company's name) is left out.
 */
export const DEFAULT_CLAIM_SELECTION: ClaimSelection = {
  maxClaims: 3,
  minShareOfTopScore: 0.5,
  minQuestionCoverage: 0.4,
};

/**
 * Picks the sentences of `sources` that best answer `question`: every sentence of every source is
 * ranked with BM25 (IDF over all of them; a table row also counts its header's words), the best ones
 * above the relevance floor are kept, at most `maxClaims`, and returned in source order (sources in
 * request order, then position) so they read as a text. A repeated sentence is returned once, and a
 * source whose id repeats an earlier one is skipped (the checker would look in the first).
 */
export function findClaimSentences(
  sources: readonly Source[],
  question: string,
  selection: ClaimSelection = DEFAULT_CLAIM_SELECTION,
): ClaimSentence[] {
  return runSteps(claimSentenceSteps(sources, question, selection));
}

/**
 * `findClaimSentences` cut into steps of at most `CLAIM_CHARS_PER_STEP` characters of source text (one
 * sentence may overrun it by its own length, at most about 1,000 characters). O(n) in the sources' length
 * plus the BM25 ranking; the question is read up to `MAX_LOCAL_QUESTION_CHARS`.
 */
export function* claimSentenceSteps(
  sources: readonly Source[],
  question: string,
  selection: ClaimSelection = DEFAULT_CLAIM_SELECTION,
): Steps<ClaimSentence[]> {
  const questionTerms = extractTerms(question.slice(0, MAX_LOCAL_QUESTION_CHARS));
  if (questionTerms.length === 0) return [];
  const candidates: { sentence: ClaimSentence; order: number }[] = [];
  const termLists: string[][] = [];
  const seenIds = new Set<string>();
  const headerTerms = new Map<string, string[]>();
  let charsSinceStep = 0;
  for (const source of sources) {
    if (seenIds.has(source.id)) continue;
    seenIds.add(source.id);
    charsSinceStep += source.text.length >> 4; // splitting costs about a sixteenth of reading terms
    for (const sentence of splitSentences(source.text)) {
      if (charsSinceStep >= CLAIM_CHARS_PER_STEP) {
        yield;
        charsSinceStep = 0;
      }
      charsSinceStep += sentence.text.length + 16;
      const terms = extractTerms(sentence.text);
      if (sentence.header !== null) {
        let extra = headerTerms.get(sentence.header);
        if (extra === undefined) {
          extra = extractTerms(sentence.header);
          headerTerms.set(sentence.header, extra);
        }
        terms.push(...extra);
      }
      candidates.push({
        sentence: { source: source.id, text: sentence.text, start: sentence.start, end: sentence.end },
        order: candidates.length,
      });
      termLists.push(terms);
    }
  }
  yield;
  const ranks = rankSentencesBm25(termLists, questionTerms);
  const top = ranks[0];
  if (top === undefined) return [];
  const floor = top.score * selection.minShareOfTopScore;
  const chosen: { sentence: ClaimSentence; order: number }[] = [];
  const chosenTexts = new Set<string>();
  for (const rank of ranks) {
    if (chosen.length >= selection.maxClaims || rank.score < floor) break;
    const candidate = candidates[rank.index];
    if (candidate === undefined || rank.coverage < selection.minQuestionCoverage) continue;
    if (chosenTexts.has(candidate.sentence.text)) continue;
    chosenTexts.add(candidate.sentence.text);
    chosen.push(candidate);
  }
  return chosen.sort((left, right) => left.order - right.order).map((candidate) => candidate.sentence);
}
