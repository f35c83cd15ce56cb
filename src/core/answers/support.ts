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
    let countedTotal = 0;
    for (const isCounted of counted) if (isCounted) countedTotal++;
    const votes = this.votes;
    votes.clear();
    // Each source of the scope (or all at once) on its own: a term frequent in one source may be rare in
    // the cited one.
    if (scope === null) this.vote(this.allPostings, 0, terms, counter);
    else {
      for (const sourceIndex of scope) {
        this.vote((this.terms[sourceIndex] as SourceTerms).postings, sourceIndex * SLOTS, terms, counter);
      }
    }
    // The best window per source, kept as numbers; a span object is made only for each source's winner.
    const best = new Map<number, Window>();
    for (const entry of topEntries(votes, CANDIDATES)) {
      const sourceIndex = Math.floor(entry / SLOTS);
      const sentence = entry % SLOTS;
      const last = (this.terms[sourceIndex] as SourceTerms).sentences.length - 1;
      const alone = this.window(sourceIndex, sentence, sentence, terms, counted, countedTotal, counter);
      let chosen = alone;
      // A neighbour can only add support when the sentence alone lacks some.
      if (alone.support < 1) {
        for (const [from, to] of [
          [sentence - 1, sentence],
          [sentence, sentence + 1],
        ] as const) {
          if (from < 0 || to > last) continue;
          const wider = this.window(sourceIndex, from, to, terms, counted, countedTotal, counter);
          if (isBetter(wider, chosen)) chosen = wider;
        }
      }
      const held = best.get(sourceIndex);
      if (held === undefined || isBetter(chosen, held)) best.set(sourceIndex, chosen);
    }
    return [...best.values()]
      .sort((a, b) => (isBetter(a, b) ? -1 : isBetter(b, a) ? 1 : 0))
      .map((window) => this.span(window, terms));
  }

  private readonly votes = new Map<number, number>();

  // Adds a vote to each sentence of `postingsOf` (at `base`) for each rare term it holds; with no rare
  // term, one to the first RARE_OCCURRENCES sentences of the least frequent.
  private vote(
    postingsOf: ReadonlyMap<string, readonly number[]>,
    base: number,
    terms: readonly string[],
    counter?: StepCounter,
  ): void {
    const votes = this.votes;
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
      for (let index = 0; index < fewest.length && index < RARE_OCCURRENCES; index++) {
        votes.set(base + (fewest[index] as number), 1);
      }
    }
  }

  // How many of the claim's terms sentences `from` to `to` of a source hold.
  private window(
    sourceIndex: number,
    from: number,
    to: number,
    terms: readonly string[],
    counted: readonly boolean[],
    countedTotal: number,
    counter?: StepCounter,
  ): Window {
    const sentenceTerms = (this.terms[sourceIndex] as SourceTerms).terms;
    let foundCounted = 0;
    let foundAll = 0;
    for (let index = 0; index < terms.length; index++) {
      const term = terms[index] as string;
      let has = false;
      for (let sentence = from; sentence <= to && !has; sentence++)
        has = (sentenceTerms[sentence] as Set<string>).has(term);
      if (!has) continue;
      foundAll++;
      if (counted[index]) foundCounted++;
    }
    if (counter !== undefined) counter.steps += terms.length * (to - from + 1);
    // A claim made only of the question's words (and numbers) still has to be found where it points.
    const support =
      countedTotal === 0 ? (terms.length === 0 ? 1 : foundAll / terms.length) : foundCounted / countedTotal;
    const source = this.terms[sourceIndex] as SourceTerms;
    const start = (source.sentences[from] as Sentence).start;
    return { sourceIndex, from, to, start, support, foundAll, sentences: to - from + 1 };
  }

  private span(window: Window, terms: readonly string[]): SupportSpan {
    const source = this.terms[window.sourceIndex] as SourceTerms;
    const found = terms.map((term) => {
      for (let sentence = window.from; sentence <= window.to; sentence++) {
        if ((source.terms[sentence] as Set<string>).has(term)) return true;
      }
      return false;
    });
    const range: Range = [window.start, (source.sentences[window.to] as Sentence).end];
    return {
      sourceIndex: window.sourceIndex,
      range,
      found,
      support: window.support,
      foundAll: window.foundAll,
      sentences: window.sentences,
    };
  }
}

/** A run of sentences of one source scored for a claim. */
interface Window {
  sourceIndex: number;
  from: number;
  to: number;
  start: number;
  support: number;
  foundAll: number;
  sentences: number;
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
function isBetter(a: Window, b: Window): boolean {
  if (a.support !== b.support) return a.support > b.support;
  if (a.foundAll !== b.foundAll) return a.foundAll > b.foundAll;
  if (a.sentences !== b.sentences) return a.sentences < b.sentences;
  if (a.sourceIndex !== b.sourceIndex) return a.sourceIndex < b.sourceIndex;
  return a.start < b.start;
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
