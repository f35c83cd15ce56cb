/** How one sentence scores against a question. */
export interface SentenceRank {
  /** Index of the sentence in the list that was ranked. */
  index: number;
  /** Okapi BM25 score. */
  score: number;
  /**
   * Share of the question's weight this sentence matches, 0..1: the IDF of each distinct question term
   * it contains over the sum for all distinct question terms. A term found in no sentence weighs as
   * much as one found in a single sentence (it may be rare; it cannot be rarer).
   */
  coverage: number;
}

// The usual Okapi constants: term-frequency saturation and length normalisation.
const K1 = 1.2;
const B = 0.75;

/** A BM25 ranking and how much of the question the sentences hold at all. */
export interface Bm25Ranking {
  /** The sentences that share at least one term with the question, best first. */
  ranks: SentenceRank[];
  /**
   * Share of the question's weight found in any sentence, 0..1 (weights as in `SentenceRank.coverage`):
   * low when the question is mostly about things the sentences never mention.
   */
  foundShare: number;
}

/**
 * Ranks sentences (each a list of terms) against a question's terms with Okapi BM25, IDF taken over
 * these sentences as `ln(1 + (N - n + 0.5) / (n + 0.5))` (never negative). Returns the sentences that
 * share at least one term with the question, best first; ties keep the original order.
 */
export function rankSentencesBm25(
  sentences: readonly (readonly string[])[],
  question: readonly string[],
): SentenceRank[] {
  return scoreSentencesBm25(sentences, question).ranks;
}

/** `rankSentencesBm25` with the share of the question found anywhere. O(total terms + m log m) for m sentences. */
export function scoreSentencesBm25(
  sentences: readonly (readonly string[])[],
  question: readonly string[],
): Bm25Ranking {
  const queryTerms = [...new Set(question)];
  const count = sentences.length;
  if (count === 0 || queryTerms.length === 0) return { ranks: [], foundShare: 0 };
  const querySet = new Set(queryTerms);
  const documentFrequency = new Map<string, number>(queryTerms.map((term) => [term, 0]));
  const frequencies: Map<string, number>[] = [];
  let totalLength = 0;
  for (const terms of sentences) {
    totalLength += terms.length;
    const frequency = new Map<string, number>();
    for (const term of terms) {
      if (querySet.has(term)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
    }
    for (const term of frequency.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    frequencies.push(frequency);
  }
  const idf = (found: number): number => Math.log(1 + (count - found + 0.5) / (found + 0.5));
  const weight = new Map<string, number>();
  let totalWeight = 0;
  let foundWeight = 0;
  for (const term of queryTerms) {
    const found = documentFrequency.get(term) ?? 0;
    const termWeight = idf(Math.max(found, 1));
    weight.set(term, termWeight);
    totalWeight += termWeight;
    if (found > 0) foundWeight += termWeight;
  }
  const averageLength = totalLength / count || 1;
  const ranks: SentenceRank[] = [];
  frequencies.forEach((frequency, index) => {
    if (frequency.size === 0) return;
    const length = (sentences[index] as readonly string[]).length;
    const norm = K1 * (1 - B + (B * length) / averageLength);
    let score = 0;
    let matched = 0;
    // Summed in question order, so sentences with the same terms in another order tie exactly.
    for (const term of queryTerms) {
      const tf = frequency.get(term);
      if (tf === undefined) continue;
      const termWeight = weight.get(term) ?? 0;
      score += (termWeight * tf * (K1 + 1)) / (tf + norm);
      matched += termWeight;
    }
    ranks.push({ index, score, coverage: matched / totalWeight });
  });
  ranks.sort((left, right) => right.score - left.score || left.index - right.index);
  return { ranks, foundShare: foundWeight / totalWeight };
}
