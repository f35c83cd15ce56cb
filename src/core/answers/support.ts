import { type Sentence, sentencesOf } from "../blocks/index.js";
import { nextNumberStart, numberEnd, numberKey } from "../numbers/index.js";
import { PAUSE } from "../pause.js";
import type { PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import { forEachWord, isStopWord, PairWords, rankingStem } from "../text/index.js";
import type { Range } from "../types.js";
import { unitTerm } from "./abbreviations.js";
import { forEachDate, forEachEquivalenceKey, type ReadWord, SHORT_YEAR_RANGE } from "./equivalences.js";
import { writesScoreline } from "./scorelines.js";

/**
 * The content term of a folded word: possessive dropped, stemmed by `rankingStem` (a unit's symbols and
 * spellings one term, `unitTerm`); null for a stop word or a word that starts with a digit (numbers are the
 * number check's).
 */
export function contentTerm(word: string): string | null {
  const bare = word.endsWith("'s") ? word.slice(0, -2) : word;
  if (bare === "" || isStopWord(bare) || DISCOURSE_WORDS.has(bare) || VAGUE_WORDS.has(bare)) return null;
  const first = bare.charCodeAt(0);
  if (first >= 48 && first <= 57) return null;
  return unitTerm(bare) ?? rankingStem(bare);
}

/**
 * The term of a number (by `numberKey`, so `2,400` and `2400` are one), or of a code when `code` holds the
 * letters joined to it by a hyphen (`I-84`: `#i-84`): a clause that holds no content word (`1927`, `more than
 * 2,400`, `I-84`) is looked up by these. The prefix keeps them apart from every word's term.
 */
export function numberTerm(key: string, code: string | null = null): string {
  return code === null ? `#${key}` : `#${code}-${key}`;
}

/** The term of a full date (`YYYY-MM-DD` from `forEachDate`), however it is written: `=date:2025-10-14`. */
export const dateTerm = (date: string): string => `=date:${date}`;

// Letters of a code before its hyphen and number (`I-84`, `US-101`, `SR-520`), at most this many.
const MAX_CODE_LETTERS = 4;
const LETTER = /\p{L}/u;

// Whether the code unit at `at` is a letter (`\p{L}`): ASCII answered without the pattern.
function isLetterAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 128) return (code | 32) >= 97 && (code | 32) <= 122;
  return LETTER.test(text[at] as string);
}

/**
 * The letters (folded) that a hyphen joins to the number starting at `start` (`I-84` gives `i`), or null:
 * a run of 1 to MAX_CODE_LETTERS letters right before the hyphen, not the end of a longer word. O(1).
 */
export function codeBefore(text: string, start: number): string | null {
  if (start < 2 || text[start - 1] !== "-") return null;
  let from = start - 1;
  while (from > 0 && start - 1 - from < MAX_CODE_LETTERS + 1 && isLetterAt(text, from - 1)) from--;
  const letters = start - 1 - from;
  if (letters === 0 || letters > MAX_CODE_LETTERS) return null;
  return text.slice(from, start - 1).toLowerCase();
}

/** Calls `visit` with the `numberKey` of each number in `text`, in order. O(text). */
export function forEachNumberKey(
  text: string,
  visit: (key: string, start: number, end: number) => void,
): void {
  // A text with no digit (most clauses of words) is passed over by the pattern, a few times faster than the scan.
  if (!ASCII_DIGIT.test(text)) return;
  for (let start = nextNumberStart(text, 0); start >= 0; ) {
    const end = numberEnd(text, start);
    visit(numberKey(text, start, end), start, end);
    start = nextNumberStart(text, end);
  }
}

const ASCII_DIGIT = /[0-9]/;

// Words an answer uses to talk about its sources or to the reader rather than to state a fact ("the passage
// describes", "the article mentions", "hope this helps"): they are not looked for in the sources.
const DISCOURSE_WORDS: ReadonlySet<string> = new Set(
  `passage passages article articles text texts document documents source sources excerpt context summary
  summarize summarizes summarized describe describes described discuss discusses discussed mention mentions
  mentioned state states stated note notes noted highlight highlights highlighted provide provides provided
  report reports reported indicate indicates indicated hope helps helpful glad sure certainly`.split(/\s+/),
);

// Words that count, tell apart or rank what a sentence speaks of without saying what it is ("several
// different bridges", "the main reasons", "a certain amount"): they assert nothing a source could hold, and a
// summary uses them where its source names the things themselves, so they are not looked for either.
const VAGUE_WORDS: ReadonlySet<string> = new Set(
  `various several multiple certain specific particular respective different separate distinct main core
  basic`.split(/\s+/),
);

/** A folded word as read once per answer check: its content term's id (-1 for none), whether a source holds it. */
interface WordEntry {
  term: number;
  inSources: boolean;
}

/**
 * The words and content terms of one answer check, each read once: a word's term is computed the first time
 * the word is met (in a source or in the answer), and each distinct term gets a number, so the support
 * search compares numbers.
 */
export class Lexicon {
  private readonly words = new Map<string, WordEntry>();
  private readonly ids = new Map<string, number>();
  /** Each term by its id. */
  readonly terms: string[] = [];
  /** Per term id: whether some source holds the term. */
  readonly termInSources: boolean[] = [];
  /** The folded words of the character pairs read so far (`forEachWord`'s pairs of Han and kana runs). */
  readonly pairs = new PairWords();
  /** Per term id: the last mark it was marked with (`mark`), 0 for none. */
  private readonly marks: number[] = [];
  private lastMark = 0;

  /**
   * A new mark, under which no term is marked yet: one reading's distinct terms are told apart by marking
   * each (`markTerm`), with no set made a reading. O(1).
   */
  newMark(): number {
    this.lastMark += 1;
    return this.lastMark;
  }

  /** Whether term `id` is not yet marked with `mark`. O(1). */
  isUnmarked(id: number, mark: number): boolean {
    return this.marks[id] !== mark;
  }

  /** Marks term `id` with `mark`; false when it already was (a repeat of the reading). O(1). */
  markTerm(id: number, mark: number): boolean {
    if (this.marks[id] === mark) return false;
    this.marks[id] = mark;
    return true;
  }

  /** The entry of a folded word, made on first use. O(1) amortised. */
  entry(word: string): WordEntry {
    let entry = this.words.get(word);
    if (entry === undefined) {
      const term = contentTerm(word);
      entry = { term: term === null ? -1 : this.id(term), inSources: false };
      this.words.set(word, entry);
    }
    return entry;
  }

  /** The id of a term, numbered on first use. */
  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
      this.termInSources.push(false);
      this.marks.push(0);
    }
    return id;
  }

  private readonly numberIds = new Map<string, number>();

  /** The id of the term of the number whose key is `key` (`numberTerm(key)`), numbered on first use. */
  numberId(key: string): number {
    let id = this.numberIds.get(key);
    if (id === undefined) {
      id = this.id(numberTerm(key));
      this.numberIds.set(key, id);
    }
    return id;
  }

  private readonly smallNumberIds = new Map<number, number>();

  /**
   * `numberId` of a whole number below 2^30 given by its value (`smallWholeNumber`): its key is the value's
   * digits, so a clause's numbers are looked up without a key string each.
   */
  smallNumberId(value: number): number {
    let id = this.smallNumberIds.get(value);
    if (id === undefined) {
      id = this.numberId(String(value));
      this.smallNumberIds.set(value, id);
    }
    return id;
  }

  /** The id of a term already numbered, or -1. */
  idOf(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  /** True when some source holds `word` as a word, or as a term. */
  inSources(word: string): boolean {
    if (this.words.get(word)?.inSources === true) return true;
    const id = this.ids.get(word);
    return id !== undefined && this.termInSources[id] === true;
  }
}

// Header words a table row is also indexed by (its column names help find it), at most this many: a wide
// header repeated on every row would otherwise cost header × rows.
const HEADER_TERMS_PER_ROW = 32;

/** A source's sentences with their content terms (by id), and where each term occurs. */
export interface SourceTerms {
  sentences: Sentence[];
  /** Sentence i's distinct term ids are `termIds[termStarts[i]]` up to `termIds[termStarts[i + 1]]`. */
  termIds: number[];
  termStarts: number[];
  /** The sentences each term id occurs in, ascending. */
  postings: Map<number, number[]>;
  /** The sentences that hold a full date (`forEachDate`), ascending. */
  dated: number[];
  /** The index of the source's title sentence (`isTitle`), or -1. */
  title: number;
}

// Reads a source's sentences once: every word's entry marked as held by the sources, each sentence's
// distinct terms (its numbers' terms too) listed, each term's sentences posted. Yields whenever `slice.read` reaches `slice.chars`
// characters of sentences. O(source).
function* readSource(
  text: string,
  lexicon: Lexicon,
  slice: { read: number; chars: number },
): Generator<void, SourceTerms, void> {
  // The source is split into sentences (`splitSentences`) by slices too: a long source's splitting pauses
  // after each slice's worth of the splitter's steps.
  const sentences: Sentence[] = [];
  const splitting: StepCounter = { steps: 0 };
  for (const sentence of sentencesOf(text, splitting)) {
    if (sentence !== PAUSE) sentences.push(sentence);
    if (splitting.steps >= slice.chars) {
      yield;
      splitting.steps = 0;
    }
  }
  const termIds: number[] = [];
  const termStarts: number[] = [];
  const postings = new Map<number, number[]>();
  const headerTerms = new Map<string, number[]>();
  const hasTitle = isTitle(text, sentences);
  const title = hasTitle
    ? termIdsOf((sentences[0] as Sentence).text, lexicon).slice(0, HEADER_TERMS_PER_ROW)
    : [];
  const dated: number[] = [];
  let current = 0;
  const add = (id: number): void => {
    const list = postings.get(id);
    if (list === undefined) postings.set(id, [current]);
    else if (list[list.length - 1] !== current) list.push(current);
    else return;
    termIds.push(id);
  };
  // The sentence's words, kept for the equivalence reader (one word scan serves both).
  const words: ReadWord[] = [];
  const visit = (word: string, start: number, end: number): void => {
    words.push({ folded: word, start, end });
    const entry = lexicon.entry(word);
    entry.inSources = true;
    if (entry.term < 0) return;
    lexicon.termInSources[entry.term] = true;
    add(entry.term);
  };
  const postId = (id: number): void => {
    lexicon.termInSources[id] = true;
    add(id);
  };
  const post = (term: string): void => postId(lexicon.id(term));
  for (; current < sentences.length; current++) {
    const sentence = sentences[current] as Sentence;
    if (slice.read >= slice.chars) {
      yield;
      slice.read = 0;
    }
    slice.read += sentence.text.length;
    termStarts.push(termIds.length);
    words.length = 0;
    forEachWord(sentence.text, visit, undefined, lexicon.pairs);
    forEachNumberKey(sentence.text, (key, start) => {
      postId(lexicon.numberId(key));
      const code = codeBefore(sentence.text, start);
      if (code !== null) post(numberTerm(key, code));
    });
    // A source's title counts as part of each of its sentences ("Larkspur Foods: third quarter 2024").
    if (current > 0) for (const id of title) add(id);
    // The keys by which the sentence holds a name in another form (docs/matching.md#answers).
    forEachEquivalenceKey(sentence.text, (key) => post(key), words);
    forEachDate(sentence.text, ({ date, month }) => {
      post(`=month:${month}`);
      post(dateTerm(date));
      if (dated[dated.length - 1] !== current) dated.push(current);
    });
    if (sentence.header !== null) {
      let header = headerTerms.get(sentence.header);
      if (header === undefined) {
        header = termIdsOf(sentence.header, lexicon).slice(0, HEADER_TERMS_PER_ROW);
        for (const id of header) lexicon.termInSources[id] = true;
        headerTerms.set(sentence.header, header);
      }
      for (const id of header) add(id);
    }
  }
  termStarts.push(termIds.length);
  return { sentences, termIds, termStarts, postings, dated, title: hasTitle ? 0 : -1 };
}

// A title: a first sentence that is its line's whole text, the line a markdown heading or a line without end
// punctuation followed by a blank line, with more sentences after it. O(title line).
function isTitle(text: string, sentences: readonly Sentence[]): boolean {
  const first = sentences[0];
  if (first === undefined || sentences.length < 2 || first.text.length > MAX_TITLE_CHARS) return false;
  const lineStart = text.lastIndexOf("\n", first.start) + 1;
  const before = text.slice(lineStart, first.start);
  if (text.slice(0, lineStart).trim() !== "") return false;
  const heading = /^[ \t]{0,3}#{1,6}[ \t]+$/.test(before);
  if (!heading && before.trim() !== "") return false;
  const after = text.slice(first.end, first.end + MAX_TITLE_CHARS);
  const blankLineAfter = /^[ \t]*\r?\n[ \t]*\r?\n/.test(after);
  return heading ? /^[ \t]*(?:\r?\n|$)/.test(after) : blankLineAfter && !/[.!?:]$/.test(first.text);
}

/** Characters of a title, at most: a longer first line is prose. */
const MAX_TITLE_CHARS = 200;

// The term ids of a text's words in order, repeats included (a header's words are terms, not source words).
function termIdsOf(text: string, lexicon: Lexicon): number[] {
  const ids: number[] = [];
  forEachWord(text, (word) => {
    const { term } = lexicon.entry(word);
    if (term >= 0) ids.push(term);
  });
  return ids;
}

/**
 * Indexes the sources of one answer check (`SupportIndex`), yielding after each `sliceChars` characters of
 * their sentences read, so that 4 MiB of sources never hold the event loop at once. O(sources).
 */
export function* indexSources(
  sources: readonly PreparedSource[],
  sliceChars: number,
  counter?: StepCounter,
): Generator<void, SupportIndex, void> {
  const lexicon = new Lexicon();
  const terms: SourceTerms[] = [];
  const slice = { read: 0, chars: sliceChars };
  for (const source of sources) {
    // Four passes over each sentence: its words, its numbers, its equivalence keys, its dates.
    if (counter !== undefined) counter.steps += 4 * source.text.length;
    terms.push(yield* readSource(source.text, lexicon, slice));
  }
  return new SupportIndex(sources, lexicon, terms, counter);
}

/** The sources of one answer check, indexed once: terms by sentence, and where each term occurs. */
export class SupportIndex {
  readonly sources: readonly PreparedSource[];
  readonly lexicon: Lexicon;
  private readonly terms: SourceTerms[];
  /** Per term id: the sources that hold it, ascending, and its occurrences (sentences) in all of them. */
  private readonly sourcesOf: number[][] = [];
  private readonly occurrences: number[] = [];
  /** The distinct terms of the sentences scored so far, by `source × SLOTS + sentence`: made on first use. */
  private readonly sentenceSets = new Map<number, TermSet>();

  /** Made by `indexSources`, from the sources read into `lexicon` and `terms`. */
  constructor(
    sources: readonly PreparedSource[],
    lexicon: Lexicon,
    terms: SourceTerms[],
    counter?: StepCounter,
  ) {
    this.sources = sources;
    this.lexicon = lexicon;
    this.terms = terms;
    let sentences = 0;
    for (const { sentences: read } of terms) {
      this.firstSlot.push(sentences);
      sentences += read.length;
    }
    this.tally = new Int32Array(sentences);
    const termCount = this.lexicon.terms.length;
    for (let id = 0; id < termCount; id++) {
      this.sourcesOf.push([]);
      this.occurrences.push(0);
    }
    for (const [sourceIndex, { postings }] of this.terms.entries()) {
      for (const [id, sentences] of postings) {
        (this.sourcesOf[id] as number[]).push(sourceIndex);
        this.occurrences[id] = (this.occurrences[id] as number) + sentences.length;
      }
      if (counter !== undefined) counter.steps += postings.size;
    }
  }

  private shortRangeYears: Set<string> | undefined;
  private scorelines: boolean | undefined;

  /**
   * The years that the sources' year ranges written short end in (`1998–99` and `1998 -- 99` give 1999), read
   * on first use. O(sources).
   */
  rangeEndYears(): ReadonlySet<string> {
    if (this.shortRangeYears === undefined) {
      const years = new Set<string>();
      for (const source of this.sources) {
        for (const match of source.text.matchAll(SHORT_YEAR_RANGE)) {
          const [, century, start, end] = match as unknown as [string, string, string, string];
          if (Number(end) > Number(start)) years.add(`${century}${end}`);
        }
      }
      this.shortRangeYears = years;
    }
    return this.shortRangeYears;
  }

  /** True when some source writes a scoreline (`won 4-1`), read on first use. O(sources). */
  writesScorelines(): boolean {
    this.scorelines ??= this.sources.some((source) => writesScoreline(source.text));
    return this.scorelines;
  }

  private readonly datelineKeys = new Map<number, Set<string>>();

  /**
   * The number keys that speak for every sentence of a source: those of its datelines (its sentences of at most
   * DATELINE_WORDS words that hold a full date: `Published April 18, 2023`, `2023-04-18 09:42`: a page's date
   * speaks for all of it), of its title (`isTitle`) and of its first top-level heading (`# Larkspur Foods: third
   * quarter 2024`: a page's headline names what all of it is about), so their numbers count for any span of
   * that source. Read on first use: O(source).
   */
  datelineNumbers(sourceIndex: number, counter?: StepCounter): ReadonlySet<string> {
    let keys = this.datelineKeys.get(sourceIndex);
    if (keys !== undefined) return keys;
    keys = new Set<string>();
    const held = keys;
    const { sentences, dated, title } = this.terms[sourceIndex] as SourceTerms;
    for (const at of dated) {
      const sentence = sentences[at] as Sentence;
      if (counter !== undefined) counter.steps += sentence.text.length;
      let words = 0;
      forEachWord(sentence.text, () => {
        words++;
      });
      if (words > DATELINE_WORDS) continue;
      forEachNumberKey(sentence.text, (key) => held.add(key));
    }
    const text = (this.sources[sourceIndex] as PreparedSource).text;
    const heading = firstHeadingStart(text, counter);
    for (const at of [title, heading < 0 ? -1 : sentenceAt(sentences, heading)]) {
      const sentence = sentences[at];
      if (sentence === undefined) continue;
      if (counter !== undefined) counter.steps += sentence.text.length;
      forEachNumberKey(sentence.text, (key) => held.add(key));
    }
    this.datelineKeys.set(sourceIndex, keys);
    return keys;
  }

  /**
   * True when a sentence of the source next to one of `ranges` (the one before or after it) holds `term`: a
   * number stated beside its support, in the same passage. O(ranges × log sentences).
   */
  besideRanges(sourceIndex: number, ranges: readonly Range[], term: string): boolean {
    return this.holdsNear(sourceIndex, ranges, term, 1);
  }

  /** True when a sentence of the source within one of `ranges` holds `term`. O(ranges × log sentences). */
  holdsWithin(sourceIndex: number, ranges: readonly Range[], term: string): boolean {
    return this.holdsNear(sourceIndex, ranges, term, 0);
  }

  // Whether a sentence of the source within one of `ranges`, or up to `reach` sentences beside it, holds `term`.
  private holdsNear(sourceIndex: number, ranges: readonly Range[], term: string, reach: number): boolean {
    const id = this.lexicon.idOf(term);
    const source = this.terms[sourceIndex] as SourceTerms;
    const postings = id < 0 ? undefined : source.postings.get(id);
    if (postings === undefined) return false;
    for (const [start, end] of ranges) {
      const first = sentenceAt(source.sentences, start);
      const last = sentenceAt(source.sentences, Math.max(start, end - 1));
      if (hasBetween(postings, first - reach, last + reach)) return true;
    }
    return false;
  }

  /** The `[start, end)` of the first sentence of a source that holds `term`, or null. O(1). */
  sentenceHolding(sourceIndex: number, term: string): Range | null {
    const id = this.lexicon.idOf(term);
    if (id < 0) return null;
    const source = this.terms[sourceIndex] as SourceTerms;
    const first = source.postings.get(id)?.[0];
    if (first === undefined) return null;
    const sentence = source.sentences[first] as Sentence;
    return [sentence.start, sentence.end];
  }

  /** True when a sentence of one source holds `term` (a content term, number term or equivalence key). O(1). */
  holds(sourceIndex: number, term: string): boolean {
    const id = this.lexicon.idOf(term);
    return id >= 0 && (this.terms[sourceIndex] as SourceTerms).postings.has(id);
  }

  /** True when `word` (folded) or its term occurs in some source. O(1). */
  knows(word: string, term: string | null): boolean {
    return this.lexicon.inSources(word) || (term !== null && this.lexicon.inSources(term));
  }

  /**
   * The best span of each source in `scope` (source indices; null for all) for the claim's `terms` (ids),
   * most support first. `counted[i]` says whether `terms[i]` counts towards support (a word of the question
   * helps find a span but does not count). See `docs/matching.md`: candidates are the sentences that hold
   * the claim's rarer terms (each term's occurrences read only when at most RARE_OCCURRENCES), the best
   * CANDIDATES of them are scored alone and with each neighbour. O(terms × RARE_OCCURRENCES) a call, plus the
   * terms of each sentence scored for the first time.
   */
  bestSpans(
    terms: readonly number[],
    counted: readonly boolean[],
    scope: readonly number[] | null,
    counter?: StepCounter,
  ): SupportSpan[] {
    let countedTotal = 0;
    for (const isCounted of counted) if (isCounted) countedTotal++;
    // Each source of the scope (or all at once) on its own: a term frequent in one source may be rare in
    // the cited one.
    if (scope === null) this.voteAll(terms, counter);
    else for (const sourceIndex of scope) this.voteIn(sourceIndex, terms, counter);
    // The best window per source, kept as numbers; a span object is made only for each source's winner.
    const best = new Map<number, Window>();
    for (const entry of this.topVoted(CANDIDATES)) {
      const sourceIndex = Math.floor(entry / SLOTS);
      const sentence = entry % SLOTS;
      const last = (this.terms[sourceIndex] as SourceTerms).sentences.length - 1;
      const alone = this.window(sourceIndex, sentence, sentence, terms, counted, countedTotal, counter);
      let chosen = alone;
      // A neighbour can only add support when the sentence alone lacks some.
      if (alone.support < 1) {
        // The sentence with the one before it, then with the one after it.
        for (let from = sentence - 1; from <= sentence; from++) {
          const to = from + 1;
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
      .map((window) => this.pooled(this.span(window, terms, counter), terms, counted, countedTotal, counter));
  }

  /**
   * The span with up to MAX_SUPPORT_SENTENCES - its sentences more of the same source added, anywhere in it,
   * each the sentence holding most of the counted terms still missing (at least MIN_POOLED_TERMS of them; ties
   * to the earlier), read from those terms' postings when rare: a page states the facts one sentence
   * cites three to fifteen sentences apart. O(terms × RARE_OCCURRENCES) a sentence added.
   */
  private pooled(
    span: SupportSpan,
    terms: readonly number[],
    counted: readonly boolean[],
    countedTotal: number,
    counter?: StepCounter,
  ): SupportSpan {
    if (countedTotal === 0) return span;
    const postings = (this.terms[span.sourceIndex] as SourceTerms).postings;
    const source = this.terms[span.sourceIndex] as SourceTerms;
    // The span's own sentences (one or two), found by binary search: O(log sentences).
    const taken = new Set<number>();
    for (let at = sentenceAt(source.sentences, span.range[0]); at < source.sentences.length; at++) {
      if ((source.sentences[at] as Sentence).start >= span.range[1]) break;
      taken.add(at);
    }
    const extra: number[] = [];
    while (span.sentences + extra.length < MAX_SUPPORT_SENTENCES) {
      // Per sentence: the missing counted words it adds, and those plus the missing numbers.
      const words = new Map<number, number>();
      const gains = new Map<number, number>();
      for (let index = 0; index < terms.length; index++) {
        if (span.found[index]) continue;
        const id = terms[index] as number;
        const isNumber = !counted[index] && (this.lexicon.terms[id] as string).startsWith("#");
        if (!counted[index] && !isNumber) continue;
        const sentences = postings.get(id);
        if (sentences === undefined || sentences.length > RARE_OCCURRENCES) continue;
        if (counter !== undefined) counter.steps += sentences.length;
        for (const sentence of sentences) {
          if (taken.has(sentence)) continue;
          gains.set(sentence, (gains.get(sentence) ?? 0) + 1);
          if (counted[index]) words.set(sentence, (words.get(sentence) ?? 0) + 1);
        }
      }
      let chosen = -1;
      let most = MIN_POOLED_TERMS - 1;
      for (const [sentence, gain] of gains) {
        // A sentence that adds only numbers is not support: a price of another product is not this one's.
        if ((words.get(sentence) ?? 0) === 0) continue;
        if (gain > most || (gain === most && chosen >= 0 && sentence < chosen)) {
          chosen = sentence;
          most = gain;
        }
      }
      if (chosen < 0) break;
      taken.add(chosen);
      extra.push(chosen);
      const held = this.sentenceTerms(span.sourceIndex, chosen, counter);
      for (let index = 0; index < terms.length; index++) {
        if (span.found[index] || !held.has(terms[index] as number)) continue;
        span.found[index] = true;
        span.foundAll++;
      }
    }
    if (extra.length === 0) return span;
    let found = 0;
    for (let index = 0; index < counted.length; index++) if (counted[index] && span.found[index]) found++;
    span.support = found / countedTotal;
    span.more = extra
      .sort((a, b) => a - b)
      .map((sentence) => {
        const { start, end } = source.sentences[sentence] as Sentence;
        return [start, end] as Range;
      });
    return span;
  }

  /**
   * Votes of one search: per sentence of every source (source i's sentence j at `firstSlot[i] + j`), its votes,
   * and the entries (`source × SLOTS + sentence`) voted for, in order of first vote. Reset by `topVoted`: a
   * search reads and clears only the sentences it voted for. Memory: an integer a sentence of the sources.
   */
  private readonly tally: Int32Array;
  private readonly firstSlot: number[] = [];
  private readonly voted: number[] = [];

  // One more vote to a sentence of a source.
  private vote(sourceIndex: number, sentence: number): void {
    const slot = (this.firstSlot[sourceIndex] as number) + sentence;
    if ((this.tally[slot] as number) === 0) this.voted.push(sourceIndex * SLOTS + sentence);
    this.tally[slot] = (this.tally[slot] as number) + 1;
  }

  // The first vote to a sentence, when it has none (else nothing).
  private voteOnce(sourceIndex: number, sentence: number): void {
    const slot = (this.firstSlot[sourceIndex] as number) + sentence;
    if ((this.tally[slot] as number) !== 0) return;
    this.voted.push(sourceIndex * SLOTS + sentence);
    this.tally[slot] = 1;
  }

  // The `count` entries voted for with most votes (ties: the smaller entry), in that order; the votes cleared.
  // O(voted × count).
  private topVoted(count: number): number[] {
    const top: [entry: number, votes: number][] = [];
    for (const entry of this.voted) {
      const sourceIndex = Math.floor(entry / SLOTS);
      const slot = (this.firstSlot[sourceIndex] as number) + (entry % SLOTS);
      const vote = this.tally[slot] as number;
      this.tally[slot] = 0;
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
    this.voted.length = 0;
    return top.map(([entry]) => entry);
  }

  // One vote to each sentence of any source for each rare term it holds; with no rare term, one to the first
  // CANDIDATES sentences of the least frequent (more could not make the top CANDIDATES: ties go to the
  // earlier sentence).
  private voteAll(terms: readonly number[], counter?: StepCounter): void {
    let fewest = -1;
    let voted = false;
    for (const id of terms) {
      const occurrences = this.occurrences[id] ?? 0;
      if (occurrences === 0) continue;
      if (fewest < 0 || occurrences < (this.occurrences[fewest] as number)) fewest = id;
      if (occurrences > RARE_OCCURRENCES) continue;
      voted = true;
      for (const sourceIndex of this.sourcesOf[id] as number[]) {
        for (const sentence of this.postingsOf(sourceIndex, id)) this.vote(sourceIndex, sentence);
      }
      if (counter !== undefined) counter.steps += occurrences;
    }
    if (voted || fewest < 0) return;
    let left = CANDIDATES;
    for (const sourceIndex of this.sourcesOf[fewest] as number[]) {
      for (const sentence of this.postingsOf(sourceIndex, fewest)) {
        if (left-- === 0) return;
        this.voteOnce(sourceIndex, sentence);
      }
    }
  }

  // As `voteAll`, within one source.
  private voteIn(sourceIndex: number, terms: readonly number[], counter?: StepCounter): void {
    const postings = (this.terms[sourceIndex] as SourceTerms).postings;
    let fewest: readonly number[] | undefined;
    let voted = false;
    for (const id of terms) {
      const sentences = postings.get(id);
      if (sentences === undefined) continue;
      if (fewest === undefined || sentences.length < fewest.length) fewest = sentences;
      if (sentences.length > RARE_OCCURRENCES) continue;
      voted = true;
      for (const sentence of sentences) this.vote(sourceIndex, sentence);
      if (counter !== undefined) counter.steps += sentences.length;
    }
    if (!voted && fewest !== undefined) {
      for (let index = 0; index < fewest.length && index < CANDIDATES; index++) {
        this.voteOnce(sourceIndex, fewest[index] as number);
      }
    }
  }

  private postingsOf(sourceIndex: number, id: number): readonly number[] {
    return (this.terms[sourceIndex] as SourceTerms).postings.get(id) as number[];
  }

  // The distinct term ids of one sentence, as a set made the first time the sentence is scored.
  private sentenceTerms(sourceIndex: number, sentence: number, counter?: StepCounter): TermSet {
    const key = sourceIndex * SLOTS + sentence;
    let set = this.sentenceSets.get(key);
    if (set === undefined) {
      const { termIds, termStarts } = this.terms[sourceIndex] as SourceTerms;
      const from = termStarts[sentence] as number;
      const to = termStarts[sentence + 1] as number;
      set = new TermSet(termIds, from, to);
      if (counter !== undefined) counter.steps += to - from;
      this.sentenceSets.set(key, set);
    }
    return set;
  }

  // How many of the claim's terms sentences `from` to `to` of a source hold.
  private window(
    sourceIndex: number,
    from: number,
    to: number,
    terms: readonly number[],
    counted: readonly boolean[],
    countedTotal: number,
    counter?: StepCounter,
  ): Window {
    const first = this.sentenceTerms(sourceIndex, from, counter);
    const second = to > from ? this.sentenceTerms(sourceIndex, to, counter) : first;
    let foundCounted = 0;
    let foundAll = 0;
    for (let index = 0; index < terms.length; index++) {
      const id = terms[index] as number;
      // A sentence alone is looked up once.
      if (!first.has(id) && (second === first || !second.has(id))) continue;
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

  private span(window: Window, terms: readonly number[], counter?: StepCounter): SupportSpan {
    const source = this.terms[window.sourceIndex] as SourceTerms;
    const first = this.sentenceTerms(window.sourceIndex, window.from, counter);
    const second =
      window.to > window.from ? this.sentenceTerms(window.sourceIndex, window.to, counter) : first;
    const found = terms.map((id) => first.has(id) || (second !== first && second.has(id)));
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

// Where the text of a source's first top-level markdown heading (`# `, up to three spaces before it: a page's
// headline) starts, or -1.
// One pass over the line starts: O(text).
function firstHeadingStart(text: string, counter?: StepCounter): number {
  for (let lineStart = 0; lineStart < text.length; ) {
    let at = lineStart;
    while (at < lineStart + 3 && text.charCodeAt(at) === 32) at++;
    let hashes = 0;
    while (text.charCodeAt(at + hashes) === 35) hashes++;
    if (hashes === 1 && (text.charCodeAt(at + 1) === 32 || text.charCodeAt(at + 1) === 9)) {
      let start = at + hashes;
      while (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9) start++;
      return start;
    }
    const next = text.indexOf("\n", at + hashes);
    if (counter !== undefined) counter.steps += (next < 0 ? text.length : next) - lineStart + 1;
    if (next < 0) return -1;
    lineStart = next + 1;
  }
  return -1;
}

// The index of the sentence that holds offset `at` (the last starting at or before it). O(log sentences).
function sentenceAt(sentences: readonly Sentence[], at: number): number {
  let low = 0;
  let high = sentences.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((sentences[middle] as Sentence).start <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

// True when the ascending `values` hold one within [from, to]. O(log values).
function hasBetween(values: readonly number[], from: number, to: number): boolean {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((values[middle] as number) < from) low = middle + 1;
    else high = middle;
  }
  return low < values.length && (values[low] as number) <= to;
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
  /** Further sentences of the same source that hold more of the claim's terms (`pooled`), in source order. */
  more?: Range[];
}

/** Where a span stands and how well it supports, without which terms it holds: what a judged clause keeps. */
export type SpanPlace = Omit<SupportSpan, "found">;

// More support first; then more terms in all (the question's words help choose); then the shorter span;
// then the earlier source and position: a total order, so the choice is deterministic.
function isBetter(a: Window, b: Window): boolean {
  if (a.support !== b.support) return a.support > b.support;
  if (a.foundAll !== b.foundAll) return a.foundAll > b.foundAll;
  if (a.sentences !== b.sentences) return a.sentences < b.sentences;
  if (a.sourceIndex !== b.sourceIndex) return a.sourceIndex < b.sourceIndex;
  return a.start < b.start;
}

/**
 * The distinct term ids of a sentence, for membership tests only: an open-addressing table of twice as many
 * slots as ids at least (a power of two), each slot the id plus one (0 for empty), where a `Set` of numbers
 * costs a call into the engine's hash table. Ids are the lexicon's, given in order of first use, so a text can
 * choose which ids a sentence holds: a probe run is capped at MAX_PROBES, and a sentence whose ids crowd the
 * table past it is held sorted instead and found by binary search. A test costs O(MAX_PROBES) or O(log ids),
 * making one O(ids log ids), whatever ids a sentence holds.
 */
export class TermSet {
  private readonly slots: Int32Array;
  private readonly shift: number;

  /** The set of `ids[from]` to `ids[to - 1]`. */
  constructor(ids: readonly number[], from: number, to: number) {
    let bits = 1;
    while (1 << bits < 2 * (to - from)) bits++;
    this.slots = new Int32Array(1 << bits);
    this.shift = 32 - bits;
    const mask = this.slots.length - 1;
    for (let at = from; at < to; at++) {
      const key = (ids[at] as number) + 1;
      let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
      let probes = 0;
      for (
        let held = this.slots[slot] as number;
        held !== 0 && held !== key;
        held = this.slots[slot] as number
      ) {
        if (++probes > MAX_PROBES) {
          // Crowded: the sentence's ids held sorted instead.
          const sorted = new Int32Array(to - from);
          for (let each = from; each < to; each++) sorted[each - from] = (ids[each] as number) + 1;
          this.slots = sorted.sort();
          this.shift = -1;
          return;
        }
        slot = (slot + 1) & mask;
      }
      this.slots[slot] = key;
    }
  }

  /** Whether the sentence holds term `id`. O(MAX_PROBES), or O(log ids) for a crowded sentence. */
  has(id: number): boolean {
    const key = id + 1;
    const slots = this.slots;
    if (this.shift < 0) return sortedHolds(slots, key);
    const mask = slots.length - 1;
    // Every id lies at most MAX_PROBES slots past its own: a run of ids beyond that holds no more of this one's.
    let slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (let probes = 0; probes <= MAX_PROBES; probes++) {
      const held = slots[slot] as number;
      if (held === key) return true;
      if (held === 0) return false;
      slot = (slot + 1) & mask;
    }
    return false;
  }
}

// Probes of a TermSet's slot before its sentence is held sorted instead: well above what ids spread by the hash
// meet at half load (about 2.5 on average), well below a crowded table's run.
const MAX_PROBES = 32;

// Whether the sorted `values` hold `value`. O(log values).
function sortedHolds(values: Int32Array, value: number): boolean {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const held = values[middle] as number;
    if (held === value) return true;
    if (held < value) low = middle + 1;
    else high = middle;
  }
  return false;
}

/** Sentence slots per source in a posting entry: no source has 2²² sentences within the sources budget. */
const SLOTS = 2 ** 22;
/** A term that occurs in more sentences than this is not read to find candidates (only to score them). */
export const RARE_OCCURRENCES = 32;
/** Candidate sentences scored per claim. */
export const CANDIDATES = 6;
/** A sentence of at most this many words that holds a full date is a dateline (`datelineNumbers`). */
const DATELINE_WORDS = 12;
/** Sentences of one source that may support one claim together (docs/matching.md#answers). */
export const MAX_SUPPORT_SENTENCES = 5;
/** Counted terms a sentence must add to join a claim's support. */
const MIN_POOLED_TERMS = 2;
