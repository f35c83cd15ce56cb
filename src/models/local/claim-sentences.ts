import { type Source, splitSentences } from "../../core/index.js";
import { MAX_LOCAL_QUESTION_CHARS } from "../../limits.js";
import { runSteps, type Steps } from "../../util.js";
import { scoreSentencesBm25 } from "./bm25.js";
import { fitsShape, readQuestion } from "./question-shape.js";
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

/** How many sentences to return at most, and when to abstain. */
export interface ClaimSelection {
  /** At most this many sentences. */
  maxClaims: number;
  /** A sentence must score at least this fraction of the best sentence's score. */
  minShareOfTopScore: number;
  /**
   * A sentence after the first must match at least this share of the question's IDF weight (see
   * `SentenceRank.coverage`), so that a heading sharing only the company's name does not follow the answer.
   * The first sentence needs only one shared content word.
   */
  minCoverageAfterFirst: number;
  /**
   * Abstain when the sources hold less than this share of the question's IDF weight anywhere (see
   * `Bm25Ranking.foundShare`): the question is then mostly about things they never mention.
   */
  minFoundShare: number;
}

/**
 * The local model's defaults: up to 3 sentences, each scoring at least half the best score; any
 * sentence that shares a content word with the question may answer, unless the sources hold less than a
 * fifth of the question's weight at all (only the company's name of "What is Northwind's favourite
 * colour?").
 */
export const DEFAULT_CLAIM_SELECTION: ClaimSelection = {
  maxClaims: 3,
  minShareOfTopScore: 0.5,
  minCoverageAfterFirst: 0.4,
  minFoundShare: 0.2,
};

/**
 * A sentence whose words cannot hold the kind of answer the question asks for (no number for `how
 * many`, no price for `how much does it cost`) keeps this share of its score.
 */
export const SHAPE_MISS_FACTOR = 0.5;

/**
 * A table row whose first cell names a term of the question that no other row of its table names, in a
 * table whose header names another, is the cell the question asks for: its score is multiplied by this.
 */
export const ROW_AND_COLUMN_FACTOR = 2;

/**
 * Picks the sentences of `sources` that best answer `question`, best first: every sentence of every
 * source is ranked with BM25 (IDF over all of them; a table row also counts its header's words); a
 * sentence that cannot hold the kind of answer asked for (see `readQuestion`) is ranked lower, and a table
 * row the question names by row and column higher. The best ones within `minShareOfTopScore` of the top
 * are kept, at most `maxClaims`. It abstains (returns none) when no sentence shares a content word with
 * the question, when the sources hold too little of the question (`minFoundShare`), or when the question
 * asks for a price and no matching sentence states one. A repeated sentence is returned once, and a
 * source whose id repeats an earlier one is skipped (the checker would look in the first).
 */
export function findClaimSentences(
  sources: readonly Source[],
  question: string,
  selection: ClaimSelection = DEFAULT_CLAIM_SELECTION,
): ClaimSentence[] {
  return runSteps(claimSentenceSteps(sources, question, selection));
}

interface Candidate {
  sentence: ClaimSentence;
  /** False when the sentence cannot hold the kind of answer the question asks for. */
  fitsShape: boolean;
  /** For a table row that the question names by a column: its table and the question's terms in its first cell. */
  row: { table: string; labelMatches: string[] } | null;
}

/**
 * `findClaimSentences` cut into steps of at most `CLAIM_CHARS_PER_STEP` characters of source text (one
 * sentence may overrun it by its own length, at most about 1,000 characters). O(n) in the sources' length
 * plus the BM25 ranking (O(m log m) in the m sentences); the question is read up to
 * `MAX_LOCAL_QUESTION_CHARS`.
 */
export function* claimSentenceSteps(
  sources: readonly Source[],
  question: string,
  selection: ClaimSelection = DEFAULT_CLAIM_SELECTION,
): Steps<ClaimSentence[]> {
  const { terms: questionTerms, shape } = readQuestion(question.slice(0, MAX_LOCAL_QUESTION_CHARS));
  if (questionTerms.length === 0) return [];
  const questionSet = new Set(questionTerms);
  const candidates: Candidate[] = [];
  const termLists: string[][] = [];
  const seenIds = new Set<string>();
  const headerTerms = new Map<string, string[]>();
  // Per table (source and header), how many rows' first cells hold each question term.
  const labelCounts = new Map<string, Map<string, number>>();
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
      const candidate: Candidate = {
        sentence: { source: source.id, text: sentence.text, start: sentence.start, end: sentence.end },
        fitsShape: shape === null || fitsShape(shape, sentence.text, terms),
        row: null,
      };
      if (sentence.header !== null) {
        let extra = headerTerms.get(sentence.header);
        if (extra === undefined) {
          extra = extractTerms(sentence.header);
          headerTerms.set(sentence.header, extra);
        }
        if (extra.some((term) => questionSet.has(term))) {
          const table = `${source.id}\u0000${sentence.header}`;
          const labelMatches = [...new Set(extractTerms(firstCell(sentence.text)))].filter((term) =>
            questionSet.has(term),
          );
          candidate.row = { table, labelMatches };
          const counts = labelCounts.get(table) ?? new Map<string, number>();
          labelCounts.set(table, counts);
          for (const term of labelMatches) counts.set(term, (counts.get(term) ?? 0) + 1);
        }
        terms.push(...extra);
        // A column header says what the row's cells are: `| Price |` makes `| item 7 | 7.50 |` a price.
        candidate.fitsShape ||= shape !== null && fitsShape(shape, sentence.header, extra);
      }
      candidates.push(candidate);
      termLists.push(terms);
    }
  }
  yield;
  const { ranks, foundShare } = scoreSentencesBm25(termLists, questionTerms);
  if (ranks.length === 0 || foundShare < selection.minFoundShare) return [];
  const scored = ranks.map((rank) => {
    const candidate = candidates[rank.index] as Candidate;
    let score = rank.score;
    if (!candidate.fitsShape) score *= SHAPE_MISS_FACTOR;
    const row = candidate.row;
    const counts = row === null ? undefined : labelCounts.get(row.table);
    if (row?.labelMatches.some((term) => counts?.get(term) === 1)) score *= ROW_AND_COLUMN_FACTOR;
    return { candidate, score, index: rank.index, coverage: rank.coverage };
  });
  // A price question that no matching sentence prices is better left unanswered than answered with a
  // sentence about something else of the same topic (a delivery time for "How much does shipping cost?").
  if (shape === "money" && !scored.some((entry) => entry.candidate.fitsShape)) return [];
  scored.sort((left, right) => right.score - left.score || left.index - right.index);
  const floor = (scored[0]?.score ?? 0) * selection.minShareOfTopScore;
  const chosen: ClaimSentence[] = [];
  const chosenTexts = new Set<string>();
  for (const { candidate, score, coverage } of scored) {
    if (chosen.length >= selection.maxClaims || score < floor) break;
    if (chosen.length > 0 && coverage < selection.minCoverageAfterFirst) continue;
    if (chosenTexts.has(candidate.sentence.text)) continue;
    chosenTexts.add(candidate.sentence.text);
    chosen.push(candidate.sentence);
  }
  return chosen;
}

/** The text of a markdown table row's first cell (`| Q3 2024 | 4.7 |` → ` Q3 2024 `). O(length of the row). */
function firstCell(row: string): string {
  const body = row.startsWith("|") ? row.slice(1) : row;
  const bar = body.indexOf("|");
  return bar === -1 ? body : body.slice(0, bar);
}
