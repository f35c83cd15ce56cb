import { type Sentence, splitSentences } from "../blocks/index.js";
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import { forEachWord, isStopWord, rankingStem } from "../text/index.js";
import type { Range } from "../types.js";

/**
 * The content term of a folded word: possessive dropped, stemmed by `rankingStem`; null for a stop word or a
 * word that starts with a digit (numbers are the number check's).
 */
export function contentTerm(word: string): string | null {
  const bare = word.endsWith("'s") ? word.slice(0, -2) : word;
  if (bare === "" || isStopWord(bare) || DISCOURSE_WORDS.has(bare)) return null;
  const first = bare.charCodeAt(0);
  if (first >= 48 && first <= 57) return null;
  return rankingStem(bare);
}

// Words an answer uses to talk about its sources or to the reader rather than to state a fact ("the passage
// describes", "the article mentions", "hope this helps"): they are not looked for in the sources.
const DISCOURSE_WORDS: ReadonlySet<string> = new Set(
  `passage passages article articles text texts document documents source sources excerpt context summary
  summarize summarizes summarized describe describes described discuss discusses discussed mention mentions
  mentioned state states stated note notes noted highlight highlights highlighted provide provides provided
  report reports reported indicate indicates indicated hope helps helpful glad sure certainly`.split(/\s+/),
);

// Header words a table row is also indexed by (its column names help find it), at most this many: a wide
// header repeated on every row would otherwise cost header × rows.
const HEADER_TERMS_PER_ROW = 32;

/** A source's sentences with their content terms, and where each term occurs. */
interface SourceTerms {
  sentences: Sentence[];
  terms: Set<string>[];
  postings: Map<string, number[]>;
  /** Every folded word and term of the source: what an entity of a claim is looked up in. */
  vocabulary: Set<string>;
}

const sourceTermsOf = memoizePerSource((text): SourceTerms => {
  const sentences = splitSentences(text);
  const terms: Set<string>[] = [];
  const postings = new Map<string, number[]>();
  const vocabulary = new Set<string>();
  const headerTerms = new Map<string, string[]>();
  for (const [index, sentence] of sentences.entries()) {
    const own = new Set<string>();
    const add = (term: string): void => {
      if (own.has(term)) return;
      own.add(term);
      const list = postings.get(term);
      if (list === undefined) postings.set(term, [index]);
      else list.push(index);
    };
    forEachWord(sentence.text, (word) => {
      vocabulary.add(word);
      const term = contentTerm(word);
      if (term !== null) {
        vocabulary.add(term);
        add(term);
      }
    });
    if (sentence.header !== null) {
      let header = headerTerms.get(sentence.header);
      if (header === undefined) {
        header = termsOf(sentence.header).slice(0, HEADER_TERMS_PER_ROW);
        for (const term of header) vocabulary.add(term);
        headerTerms.set(sentence.header, header);
      }
      for (const term of header) add(term);
    }
    terms.push(own);
  }
  return { sentences, terms, postings, vocabulary };
});

function termsOf(text: string): string[] {
  const terms: string[] = [];
  forEachWord(text, (word) => {
    const term = contentTerm(word);
    if (term !== null) terms.push(term);
  });
  return terms;
}

/** The sources of one answer check, indexed once: terms by sentence, and a vocabulary of all of them. */
export class SupportIndex {
  readonly sources: readonly PreparedSource[];
  private readonly terms: SourceTerms[];
  /** Where each term occurs across all sources: `source × SLOTS + sentence`, ascending. */
  private readonly allPostings = new Map<string, number[]>();
  /** Every source's vocabulary together. */
  private readonly vocabulary = new Set<string>();

  constructor(sources: readonly PreparedSource[], counter?: StepCounter) {
    this.sources = sources;
    this.terms = sources.map((source) => sourceTermsOf(source, counter));
    for (const [sourceIndex, { postings, vocabulary }] of this.terms.entries()) {
      for (const word of vocabulary) this.vocabulary.add(word);
      if (counter !== undefined) counter.steps += vocabulary.size;
      for (const [term, sentences] of postings) {
        let list = this.allPostings.get(term);
        if (list === undefined) {
          list = [];
          this.allPostings.set(term, list);
        }
        for (const sentence of sentences) list.push(sourceIndex * SLOTS + sentence);
        if (counter !== undefined) counter.steps += sentences.length;
      }
    }
  }

  /** True when `word` (folded) or its term occurs in some source. O(1). */
  knows(word: string, term: string | null): boolean {
    return this.vocabulary.has(word) || (term !== null && this.vocabulary.has(term));
  }

  /**
   * The best span of each source in `scope` (source indices; null for all) for the claim's `terms`, most
   * support first. `counted[i]` says whether `terms[i]` counts towards support (a word of the question
   * helps find a span but does not count). See `docs/matching.md`: candidates are the sentences that hold
   * the claim's rarer terms (each term's occurrences read only when at most RARE_OCCURRENCES), the best
   * CANDIDATES of them are scored alone and with each neighbour. O(terms × RARE_OCCURRENCES) a call.
   */
  bestSpans(
    terms: readonly string[],
    counted: readonly boolean[],
    scope: readonly number[] | null,
    counter?: StepCounter,
  ): SupportSpan[] {
    const countedTotal = counted.filter(Boolean).length;
    const votes = new Map<number, number>();
    // Each source of the scope (or all at once) on its own: a term frequent in one source may be rare in
    // the cited one.
    for (const [postingsOf, base] of this.groups(scope)) {
      let fewest: readonly number[] | undefined;
      let voted = false;
      for (const term of terms) {
        const postings = postingsOf.get(term);
        if (postings === undefined) continue;
        if (fewest === undefined || postings.length < fewest.length) fewest = postings;
        if (postings.length > RARE_OCCURRENCES) continue;
        voted = true;
        for (const entry of postings) votes.set(base + entry, (votes.get(base + entry) ?? 0) + 1);
        if (counter !== undefined) counter.steps += postings.length;
      }
      if (!voted && fewest !== undefined) {
        for (const entry of fewest.slice(0, RARE_OCCURRENCES)) votes.set(base + entry, 1);
      }
    }
    const best = new Map<number, SupportSpan>();
    for (const entry of topEntries(votes, CANDIDATES)) {
      const sourceIndex = Math.floor(entry / SLOTS);
      const sentence = entry % SLOTS;
      const last = (this.terms[sourceIndex] as SourceTerms).sentences.length - 1;
      for (const [from, to] of [
        [sentence, sentence],
        [sentence - 1, sentence],
        [sentence, sentence + 1],
      ] as const) {
        if (from < 0 || to > last) continue;
        const span = this.score(sourceIndex, from, to, terms, counted, countedTotal, counter);
        const held = best.get(sourceIndex);
        if (held === undefined || isBetter(span, held)) best.set(sourceIndex, span);
      }
    }
    return [...best.values()].sort((a, b) => (isBetter(a, b) ? -1 : isBetter(b, a) ? 1 : 0));
  }

  // Where to look up terms: each source of the scope with its base, or all sources at once.
  private groups(scope: readonly number[] | null): [ReadonlyMap<string, readonly number[]>, number][] {
    if (scope === null) return [[this.allPostings, 0]];
    return scope.map((sourceIndex) => [
      (this.terms[sourceIndex] as SourceTerms).postings,
      sourceIndex * SLOTS,
    ]);
  }

  private score(
    sourceIndex: number,
    from: number,
    to: number,
    terms: readonly string[],
    counted: readonly boolean[],
    countedTotal: number,
    counter?: StepCounter,
  ): SupportSpan {
    const source = this.terms[sourceIndex] as SourceTerms;
    const found: boolean[] = [];
    let foundCounted = 0;
    let foundAll = 0;
    for (const [index, term] of terms.entries()) {
      let has = false;
      for (let sentence = from; sentence <= to && !has; sentence++)
        has = (source.terms[sentence] as Set<string>).has(term);
      found.push(has);
      if (has) {
        foundAll++;
        if (counted[index]) foundCounted++;
      }
    }
    if (counter !== undefined) counter.steps += terms.length * (to - from + 1);
    const range: Range = [(source.sentences[from] as Sentence).start, (source.sentences[to] as Sentence).end];
    return {
      sourceIndex,
      range,
      found,
      // A claim made only of the question's words (and numbers) still has to be found where it points.
      support:
        countedTotal === 0 ? (terms.length === 0 ? 1 : foundAll / terms.length) : foundCounted / countedTotal,
      foundAll,
      sentences: to - from + 1,
    };
  }
}

/** A span of one source and which of the claim's terms it holds. */
export interface SupportSpan {
  sourceIndex: number;
  range: Range;
  /** Per term of the claim: whether the span holds it. */
  found: boolean[];
  /** The share of the claim's counted terms the span holds (of all its terms when none counts; 1 when it has none). */
  support: number;
  foundAll: number;
  sentences: number;
}

// More support first; then more terms in all (the question's words help choose); then the shorter span;
// then the earlier source and position: a total order, so the choice is deterministic.
function isBetter(a: SupportSpan, b: SupportSpan): boolean {
  if (a.support !== b.support) return a.support > b.support;
  if (a.foundAll !== b.foundAll) return a.foundAll > b.foundAll;
  if (a.sentences !== b.sentences) return a.sentences < b.sentences;
  if (a.sourceIndex !== b.sourceIndex) return a.sourceIndex < b.sourceIndex;
  return a.range[0] < b.range[0];
}

/** The `count` entries with most votes (ties: the smaller entry), in that order. O(entries × count). */
function topEntries(votes: ReadonlyMap<number, number>, count: number): number[] {
  const top: [entry: number, votes: number][] = [];
  for (const [entry, vote] of votes) {
    if (top.length === count) {
      const [lastEntry, lastVote] = top[count - 1] as [number, number];
      if (vote < lastVote || (vote === lastVote && entry > lastEntry)) continue;
      top.pop();
    }
    let at = top.length;
    while (at > 0) {
      const [aboveEntry, aboveVote] = top[at - 1] as [number, number];
      if (aboveVote > vote || (aboveVote === vote && aboveEntry < entry)) break;
      at--;
    }
    top.splice(at, 0, [entry, vote]);
  }
  return top.map(([entry]) => entry);
}

/** Sentence slots per source in a posting entry: no source has 2²² sentences within the sources budget. */
const SLOTS = 2 ** 22;
/** A term that occurs in more sentences than this is not read to find candidates (only to score them). */
export const RARE_OCCURRENCES = 32;
/** Candidate sentences scored per claim. */
export const CANDIDATES = 6;
