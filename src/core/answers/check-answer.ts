import { MAX_EXPLAIN_TEXT_CHARS } from "../../limits.js";
import { runSteps, type Steps, trimTrailing } from "../../util.js";
import { explainNumbers, type NumberCheck } from "../claims/index.js";
import { PAUSE } from "../pause.js";
import { type PreparedSource, prepareSources } from "../prepared-source.js";
import { expectQuotes, findQuote } from "../quotes/index.js";
import type { StepCounter } from "../step-counter.js";
import { forEachWord } from "../text/index.js";
import type { CheckNumbers, MatchMode, NumberMiss, Range, Source } from "../types.js";
import { otherWrittenForms } from "./abbreviations.js";
import { isAboutSources } from "./about-sources.js";
import { type AnswerClaim, answerClaims, type Clause, tidy } from "./answer-claims.js";
import {
  forEachDate,
  forEachEquivalenceKey,
  forEachEquivalenceKeyInPieces,
  initialsKeyOfWord,
  keysOfWord,
  valuesOf,
  withoutEquivalentNumbers,
} from "./equivalences.js";
import { withoutFraming } from "./framing.js";
import { keptLine } from "./markdown-cut.js";
import { type AnswerMarkers, markerSteps, resolveMarkerName } from "./markers.js";
import { deniedTerms, statesNegation } from "./negation.js";
import { expectSpacedQuotation, foundUpToSpacing } from "./quotation-spacing.js";
import { withoutScorelines } from "./scorelines.js";
import { originalSpan, type ReadableSource, readableSource } from "./scraped-text.js";
import {
  codeBefore,
  contentTerm,
  dateTerm,
  forEachNumberKey,
  indexSources,
  type Lexicon,
  numberTerm,
  type SupportIndex,
  type SupportSpan,
} from "./support.js";

/** Options of an answer check. */
export interface AnswerCheckOptions {
  mode?: MatchMode | undefined;
  /** Answer mode checks numbers against the supporting source by default (`source`); `false` turns it off. */
  checkNumbers?: CheckNumbers | undefined;
  explain?: boolean | undefined;
  /** The user's messages: their words are context, not new facts. */
  question?: readonly string[] | undefined;
  /**
   * Refuse an answer of more claims and clauses than this, or of more than twice as many markers
   * (`TooManyClaims`), before checking any: the markers are counted first, in one cheap pass that stops past
   * twice the cap, then the claims as they are read, stopping at the first past the cap (so a refused answer
   * costs the work and memory of the cap, whatever its length).
   */
  maxClaims?: number | undefined;
  /** Where the check adds the number of claims and clauses it read (for a caller that caps several checks). */
  clauseTally?: { clauses: number } | undefined;
  /**
   * Where the check adds the claims it judged and kept (framing and sentences about the sources are neither):
   * a caller that checks an answer in pieces reckons the whole answer's coverage from them.
   */
  claimTally?: { judged: number; kept: number } | undefined;
  /**
   * A claim whose every check passes but whose spans lack some of its content words is partially supported:
   * `keep` (default) keeps it and lists those words in `partial`; `drop` removes it as `partial_support`.
   */
  partial?: PartialPolicy | undefined;
  /**
   * Characters of best spans (`quote`) the unsupported entries carry together, at most: from the first entry
   * whose span would pass it, entries are listed without their best span (`source`, `quote`, `range`,
   * `support`), so an answer of many dropped sentences cannot multiply into a result many times its size.
   */
  maxBestSpanChars?: number | undefined;
  /**
   * `maxBestSpanChars` shared by checks of one answer's pieces, made in answer order: each takes what is left
   * and leaves the rest (`-1` once spent), so together they list best spans as one check of the answer would.
   */
  bestSpanBudget?: { chars: number } | undefined;
  /**
   * The answer's claims as `answerClaims` reads them (offsets into the answer), when the caller has split it
   * already: a streamed piece, split together with the text that followed it and cut where both parts split as
   * the whole does (so these are the piece's own claims). The check then neither reads markers nor splits:
   * each piece of a stream is split once. Their claims and clauses still count against `maxClaims`.
   */
  claims?: readonly AnswerClaim[] | undefined;
}

/**
 * An answer refused by `maxClaims`: how many claims and clauses, or markers, were counted before the count
 * stopped (one past the cap).
 */
export interface TooManyClaims {
  tooManyClaims: number;
  counted: "claims and clauses" | "markers";
}

/** What a partially supported claim becomes: kept with its unsupported words named, or dropped. */
export type PartialPolicy = "keep" | "drop";

/** Why a claim of an answer was removed. */
export type AnswerReason =
  | "no_support"
  | "partial_support"
  | "number_not_found"
  | "entity_not_found"
  | "wrong_source"
  | "unknown_source"
  | "quote_not_found";

/** A claim (or clause) of an answer and the span of a source that supports it. */
export interface AnswerCitation {
  claim: string;
  quote: string;
  source: string;
  range: Range;
  /** The share of the claim's content words the span holds, 0 to 1. */
  support: number;
  answerRange: Range;
}

/** Why a removed claim failed, when `explain` asks (and `foundIn` always, with `wrong_source`). */
export interface AnswerMiss {
  foundIn?: string[];
  words?: string[];
  entity?: string;
  quotation?: string;
  /** With quote_not_found in strict mode: the source holds the quotation with only its case different. */
  differsOnlyIn?: "first_letter_case" | "case";
  /** With `differsOnlyIn`: the quotation as the source writes it. */
  sourceText?: string;
  marker?: string;
}

/** A claim of an answer that was removed, with its best span when one was found. */
export interface AnswerUnsupported {
  claim: string;
  reason: AnswerReason;
  answerRange: Range;
  source?: string;
  quote?: string;
  range?: Range;
  support?: number;
  detail?: NumberMiss | AnswerMiss;
}

/** A content word of a kept, partially supported claim that none of its spans holds. */
export interface AnswerPartialTerm {
  claim: string;
  /** The word as the answer writes it. */
  term: string;
  /** Where the word stands in the answer. */
  answerRange: Range;
}

/** The outcome of checking a plain answer. */
export interface AnswerResult {
  /** The answer with its removed claims cut out. */
  text: string;
  citations: AnswerCitation[];
  unsupported: AnswerUnsupported[];
  /** The words of kept claims that are only partially supported, each with its place in the answer. */
  partial: AnswerPartialTerm[];
  /** Kept claims / claims; 0 when the answer has none. */
  coverage: number;
}

/** A clause's support at least this share of its content words holds it (docs/matching.md). */
export const SUPPORT_THRESHOLD = 0.4;
/** A clause is checked against at most this many of the sources it cites (the first it names). */
export const MAX_CITED_SOURCES_PER_CLAUSE = 8;
/**
 * Characters of sources read in the work of one character of claims: reading a source costs a few steps a
 * word, the support search of a claim a few dozen a character.
 */
const SOURCE_CHARS_PER_CLAIM_CHAR = 20;
/**
 * Steps of splitting (`answerClaims`) in the work of one character of claims: the splitter reads each
 * character a few times per stage.
 */
const SPLIT_STEPS_PER_CLAIM_CHAR = 10;
/** Words listed in an explained `no_support`. */
const MAX_EXPLAINED_WORDS = 12;

/**
 * Sources made ready for answer checks once (`prepareAnswerSources`): checking several answers against the
 * same prepared sources reads and indexes each source once, its per-source views and the support index
 * shared between the checks (as between the claims of one check: the index's word list grows with the
 * answers' words, which no source holds).
 */
export interface PreparedAnswerSources {
  readonly prepared: readonly PreparedSource[];
  /** The sources as a reader sees them and their support index: made by the first check, read by the next. */
  indexed?: { readable: ReadableSource[]; index: SupportIndex } | undefined;
}

/** Prepares sources for checking several answers against them (ids first come, first served). */
export function prepareAnswerSources(sources: readonly Source[]): PreparedAnswerSources {
  return { prepared: [...prepareSources(sources).values()] };
}

/** Checks a plain answer with citation markers against sources (see `answerCheckSteps`). */
export function checkAnswer(
  sources: readonly Source[] | PreparedAnswerSources,
  answer: string,
  options: AnswerCheckOptions = {},
  counter?: StepCounter,
): AnswerResult {
  const { maxClaims: _, ...unbounded } = options;
  // With no limit on claims the check never ends at TooManyClaims.
  return runSteps(
    answerCheckSteps(sources, answer, unbounded, Number.POSITIVE_INFINITY, counter),
  ) as AnswerResult;
}

/**
 * Checks a plain answer: splits it into claims and clauses (`splitAnswerClaims`), finds each clause's
 * support in the sources it cites (or in all, when it cites none), and drops a claim when a clause names an
 * unknown source, quotes what its source does not hold, names an entity no source holds, is supported by
 * another source than the one it cites, has too little support, or states a number its support's source does
 * not hold. Yields after each run of claims whose work reaches `stepBudget`. O(answer + sources) in the worst
 * case: see docs/matching.md.
 */
export function* answerCheckSteps(
  sources: readonly Source[] | PreparedAnswerSources,
  answer: string,
  options: AnswerCheckOptions,
  stepBudget: number,
  counter?: StepCounter,
): Steps<AnswerResult | TooManyClaims> {
  const maxClaims = options.maxClaims ?? Number.POSITIVE_INFINITY;
  // Steps of every stage are counted, and the check yields whenever a slice's worth has passed.
  const tally = counter ?? { steps: 0 };
  const sliceSteps = SPLIT_STEPS_PER_CLAIM_CHAR * stepBudget;
  let sliceEnd = tally.steps + sliceSteps;
  // The caps come before any work that grows with the claims: the markers are counted in one pass that stops
  // past twice the cap, and the claims as they are read, stopping at the first past the cap.
  // Claims the caller split are only counted: no markers are read and nothing is split again.
  const given = options.claims;
  let found: AnswerMarkers | undefined = given === undefined ? undefined : NO_MARKERS;
  const markerPass = markerSteps(answer, 2 * maxClaims, tally);
  while (found === undefined) {
    const step = markerPass.next();
    if (step.done === true) found = step.value;
    else if (tally.steps >= sliceEnd) {
      yield;
      sliceEnd = tally.steps + sliceSteps;
    }
  }
  if (found.markers.length > 2 * maxClaims)
    return { tooManyClaims: found.markers.length, counted: "markers" };
  const claims: AnswerClaim[] = [];
  const wanted = new Set<string>();
  let clauses = 0;
  for (const claim of given ?? answerClaims(answer, found, tally)) {
    if (claim !== PAUSE) {
      clauses += claim.clauses.length;
      if (clauses > maxClaims) return { tooManyClaims: clauses, counted: "claims and clauses" };
      claims.push(claim);
      addWantedInitials(wanted, claim, tally);
    }
    if (tally.steps >= sliceEnd) {
      yield;
      sliceEnd = tally.steps + sliceSteps;
    }
  }
  if (options.clauseTally !== undefined) options.clauseTally.clauses += clauses;
  // The sources are indexed only for an answer that will be checked.
  // Each source read as a reader sees it (scraped and PDF text cleaned), cited as it was given.
  const shared = "prepared" in sources ? sources : undefined;
  let indexed = shared?.indexed;
  if (indexed === undefined) {
    const readable = (shared ?? prepareAnswerSources(sources as readonly Source[])).prepared.map(
      readableSource,
    );
    indexed = {
      readable,
      index: yield* indexSources(readable, stepBudget * SOURCE_CHARS_PER_CLAIM_CHAR, tally),
    };
    if (shared !== undefined) shared.indexed = indexed;
  }
  const { readable: prepared, index } = indexed;
  // The answer's acronyms are read in pieces of a slice's worth, pausing between them.
  const initials = answerInitials(answer, wanted, index, sliceSteps, tally);
  let answerKeys: Set<string> | undefined;
  for (let step = initials.next(); answerKeys === undefined; step = initials.next()) {
    if (step.done === true) answerKeys = step.value;
    else if (tally.steps >= sliceEnd) {
      yield;
      sliceEnd = tally.steps + sliceSteps;
    }
  }
  const context: CheckContext = {
    index,
    ids: prepared.map((source) => source.id),
    indexOfId: new Map(prepared.map((source, sourceIndex) => [source.id, sourceIndex])),
    question: questionTerms(options.question ?? []),
    answerInitials: answerKeys,
    spanValues: new Map(),
    deniedTerms: new Map(),
    options,
    counter: tally,
  };
  const judged: (Judged | null)[] = [];
  let work = 0;
  for (const claim of claims) {
    if (work >= stepBudget || tally.steps >= sliceEnd) {
      yield;
      work = 0;
      sliceEnd = tally.steps + sliceSteps;
    }
    judged.push(judgeSupport(context, claim));
    work += 1 + claim.range[1] - claim.range[0];
  }
  // Every quotation is announced to its source before any is searched: many against one source are then
  // found in one pass (`findQuote`).
  for (const verdict of judged) {
    for (const clause of verdict?.clauses ?? []) {
      for (const { quotation, pieces, sourceIndexes } of clause.quotations) {
        for (const sourceIndex of sourceIndexes) {
          expectQuotes(prepared[sourceIndex] as PreparedSource, pieces, options.mode ?? "strict");
          expectSpacedQuotation(prepared[sourceIndex] as PreparedSource, quotation, options.mode ?? "strict");
          // An explained strict miss says whether the source holds the quotation in other case.
          if (options.explain === true && (options.mode ?? "strict") === "strict")
            expectQuotes(prepared[sourceIndex] as PreparedSource, [quotation], "lenient");
        }
      }
    }
  }
  const result: AnswerResult = { text: "", citations: [], unsupported: [], partial: [], coverage: 0 };
  const dropped: Range[] = [];
  let kept = 0;
  let counted = 0;
  let spanCharsLeft = options.bestSpanBudget?.chars ?? options.maxBestSpanChars ?? Number.POSITIVE_INFINITY;
  for (const [position, verdict] of judged.entries()) {
    if (work >= stepBudget || tally.steps >= sliceEnd) {
      yield;
      work = 0;
      sliceEnd = tally.steps + sliceSteps;
    }
    if (verdict === null) continue;
    counted++;
    const claim = claims[position] as AnswerClaim;
    work += 1 + claim.range[1] - claim.range[0];
    const unsupportedTerms = partialTerms(claim, verdict);
    const miss =
      finishClaim(context, claim, verdict) ??
      (unsupportedTerms.length > 0 && options.partial === "drop"
        ? partialDrop(context, claim, verdict, unsupportedTerms)
        : null);
    if (miss === null) {
      kept++;
      // Citations are read in the sources' readable text; they leave in the text as given (`originalSpan`).
      for (const clause of verdict.clauses) {
        for (const citation of clause.citations) result.citations.push(asGiven(context, citation));
      }
      result.partial.push(...unsupportedTerms);
    } else {
      // Once a span does not fit, no later one is kept either: the entries with spans come first.
      const spanChars = miss.quote?.length ?? 0;
      if (spanChars > spanCharsLeft) spanCharsLeft = -1;
      if (spanCharsLeft < 0 && miss.quote !== undefined) result.unsupported.push(withoutBestSpan(miss));
      else {
        spanCharsLeft -= spanChars;
        result.unsupported.push(miss);
      }
      pushByLine(answer, claim.range, dropped);
    }
  }
  result.text = removeSpans(answer, dropped);
  result.coverage = coverageOf(kept, counted);
  if (options.claimTally !== undefined) {
    options.claimTally.judged += counted;
    options.claimTally.kept += kept;
  }
  if (options.bestSpanBudget !== undefined) options.bestSpanBudget.chars = spanCharsLeft;
  return result;
}

const NO_MARKERS: AnswerMarkers = { markers: [], hidden: [] };

interface CheckContext {
  index: SupportIndex;
  ids: string[];
  indexOfId: Map<string, number>;
  question: QuestionTerms;
  /** The acronyms the answer defines (`answerInitials`). */
  answerInitials: Set<string>;
  /** The number and date values of each supporting span read so far, by `source:start:end`. */
  spanValues: Map<string, Set<string>>;
  /** The terms each best span read so far writes only as denied (`deniedTerms`), by `source:start:end`. */
  deniedTerms: Map<string, Set<number>>;
  options: AnswerCheckOptions;
  counter?: StepCounter;
}

interface QuestionTerms {
  words: Set<string>;
  terms: Set<string>;
  /** The question's numbers by `numberKey`: an answer that repeats one is not checked for it. */
  numbers: Set<string>;
  /** The question's full dates (`forEachDate`): an answer that repeats one gets no support from it. */
  dates: Set<string>;
}

function questionTerms(messages: readonly string[]): QuestionTerms {
  const words = new Set<string>();
  const terms = new Set<string>();
  const numbers = new Set<string>();
  const dates = new Set<string>();
  for (const message of messages) {
    forEachNumberKey(message, (key) => numbers.add(key));
    forEachDate(message, ({ date }) => dates.add(date));
    forEachWord(message, (word) => {
      words.add(word);
      const term = contentTerm(word);
      if (term !== null) terms.add(term);
    });
  }
  return { words, terms, numbers, dates };
}

/** A claim after the support search: each clause's citations or its first failure. */
interface Judged {
  clauses: JudgedClause[];
}

interface JudgedClause {
  clause: Clause;
  citations: AnswerCitation[];
  /** The sources the clause's support comes from, by index: numbers and quotations are checked there. */
  supportSources: number[];
  best: SupportSpan | undefined;
  failure: { reason: AnswerReason; detail?: NumberMiss | AnswerMiss } | null;
  /** Each quotation, the pieces an elision mark (`[...]`, `…`) cuts it into (itself when none), its sources. */
  quotations: { quotation: string; pieces: string[]; sourceIndexes: number[] }[];
  /** The sources the clause's markers name, by index (empty when it cites none). */
  cited: number[];
  terms: number[];
  counted: boolean[];
  /** The clause's entities (`clauseTerms`): another source is named in `foundIn` only when it holds them all. */
  entities: ClauseTerms["entities"];
  /** The clause's counted words that none of its spans holds, with their answer ranges (none when it failed). */
  missing: { term: string; answerRange: Range }[];
}

// The terms of a clause: each distinct content term once (by id), and whether it counts (is not the
// question's).
function clauseTerms(
  clause: Clause,
  question: QuestionTerms,
  lexicon: Lexicon,
  startsClaim: boolean,
): ClauseTerms {
  const seen = new Set<number>();
  const read: ClauseTerms = {
    terms: [],
    counted: [],
    words: [],
    starts: [],
    entities: [],
    numbersOnly: false,
  };
  // Connecting phrases ("Additionally,", "it's worth noting that") and a bold lead-in state nothing.
  const text = withoutFraming(clause.masked);
  let first = true;
  forEachWord(text, (word, start, end) => {
    const id = lexicon.entry(word).term;
    const sentenceStart = first && startsClaim;
    first = false;
    if (id < 0) return;
    const term = lexicon.terms[id] as string;
    if (isEntityAt(text, start, end, sentenceStart)) {
      read.entities.push({ word, term, written: text.slice(start, end), start, end });
    }
    if (seen.has(id)) return;
    seen.add(id);
    pushTerm(read, id, !question.terms.has(term), text.slice(start, end), start);
  });
  if (read.terms.length === 0) readNumberTerms(read, text, question, lexicon);
  else {
    addDateTerms(read, text, question, lexicon);
    addNumberTerms(read, text, lexicon);
  }
  return read;
}

// Adds a term (by id) to a clause's terms: whether it counts, its written form and where that starts.
function pushTerm(read: ClauseTerms, id: number, counted: boolean, word: string, start: number): void {
  read.terms.push(id);
  read.counted.push(counted);
  read.words.push(word);
  read.starts.push(start);
}

// Words that name the date a clause states ("the release date is 2025-10-14"): with a full date, the date is
// what they say.
const DATE_WORDS: ReadonlySet<string> = new Set(["date", "dates", "day"]);

// A full date of a clause of words that some source holds counts towards its support like a word, in whatever
// form that source writes it (`dateTerm`): a sentence that holds the same day, month and year speaks of the
// same event. The date's own words and those that only name it (`DATE_WORDS`) then do not count.
function addDateTerms(read: ClauseTerms, text: string, question: QuestionTerms, lexicon: Lexicon): void {
  if (!HAS_DIGIT.test(text)) return;
  const words = read.terms.length;
  const seen = new Set<number>();
  const spans: Range[] = [];
  forEachDate(text, ({ date, start, end }) => {
    // Only a date some source holds stands for its words: another is read word by word, as before.
    const id = lexicon.idOf(dateTerm(date));
    if (id < 0 || lexicon.termInSources[id] !== true) return;
    spans.push([start, end]);
    if (seen.has(id)) return;
    seen.add(id);
    pushTerm(read, id, !question.dates.has(date), text.slice(start, end), start);
  });
  if (spans.length === 0) return;
  // The date's own words (`Oct`) are the date's; the words that name it say nothing more. The words' starts
  // ascend, so one walk over the sorted dates serves them all: O(words + dates log dates).
  spans.sort((a, b) => a[0] - b[0]);
  let span = 0;
  let furthest = -1;
  for (let index = 0; index < words; index++) {
    const start = read.starts[index] as number;
    while (span < spans.length && (spans[span] as Range)[0] <= start)
      furthest = Math.max(furthest, (spans[span++] as Range)[1]);
    if (start < furthest || DATE_WORDS.has((read.words[index] as string).toLowerCase()))
      read.counted[index] = false;
  }
}

// A clause with no content word (`1927`, `I-84`, `more than 2,400`) is looked up by its numbers: each distinct
// number a term, counted unless the question holds it, so its support is the source sentence holding them.
function readNumberTerms(read: ClauseTerms, text: string, question: QuestionTerms, lexicon: Lexicon): void {
  const seen = new Set<number>();
  forEachNumberKey(text, (key, start, end) => {
    // A code (`I-84`) is looked up as written, so `US-84` is not found where a source writes `I-84`.
    const code = codeBefore(text, start);
    const id = code === null ? lexicon.numberId(key) : lexicon.id(numberTerm(key, code));
    if (seen.has(id)) return;
    seen.add(id);
    const from = code === null ? start : start - code.length - 1;
    pushTerm(read, id, !question.numbers.has(key), text.slice(from, end), from);
  });
  read.numbersOnly = read.terms.length > 0;
}

// The numbers of a clause of words join its terms without counting towards support: among spans that hold the
// same words, the one that also holds the claim's numbers wins (a claim about 2021 cites the 2021 sentence), and
// support pooled from further sentences may bring them in (`SupportIndex.bestSpans`).
function addNumberTerms(read: ClauseTerms, text: string, lexicon: Lexicon): void {
  const seen = new Set<number>();
  forEachNumberKey(text, (key, start, end) => {
    const id = lexicon.numberId(key);
    if (seen.has(id)) return;
    seen.add(id);
    pushTerm(read, id, false, text.slice(start, end), start);
  });
}

/** A clause's content terms in order, whether each counts, their written forms, and its entities. */
interface ClauseTerms {
  terms: number[];
  counted: boolean[];
  words: string[];
  /** Where each of `words` starts in the clause's text. */
  starts: number[];
  entities: { word: string; term: string; written: string; start: number; end: number }[];
  /** True when the clause holds no content word and its terms are its numbers (`readNumberTerms`). */
  numbersOnly: boolean;
}

/**
 * The support search of one claim, or null when the claim states nothing to check (no content word, number
 * or entity outside the question's words): such a sentence is context and is kept.
 */
function judgeSupport(context: CheckContext, claim: AnswerClaim): Judged | null {
  if (claim.framing) return null;
  const clauses: JudgedClause[] = [];
  let statesSomething = false;
  for (const [position, clause] of claim.clauses.entries()) {
    const read = clauseTerms(clause, context.question, context.index.lexicon, position === 0);
    if (read.counted.some(Boolean) || clause.markers.length > 0 || HAS_DIGIT.test(clause.masked))
      statesSomething = true;
    clauses.push(judgeClause(context, claim, clause, read));
  }
  return statesSomething ? { clauses } : null;
}

const HAS_DIGIT = /\p{Nd}/u;
const HAS_LETTER = /\p{L}/u;

function judgeClause(
  context: CheckContext,
  claim: AnswerClaim,
  clause: Clause,
  read: ClauseTerms,
): JudgedClause {
  const { terms, counted } = read;
  const { index, options, counter } = context;
  const explain = options.explain === true;
  const judged: JudgedClause = {
    clause,
    citations: [],
    supportSources: [],
    best: undefined,
    failure: null,
    quotations: [],
    cited: [],
    terms,
    counted,
    entities: read.entities,
    missing: [],
  };
  const cited = judged.cited;
  for (const marker of clause.markers) {
    for (const name of marker.names) {
      const id = resolveMarkerName(name, context.ids, context.indexOfId);
      if (id === null) {
        judged.failure = {
          reason: "unknown_source",
          ...(explain ? { detail: { marker: marker.text } } : {}),
        };
        return judged;
      }
      const sourceIndex = context.indexOfId.get(id) as number;
      if (!cited.includes(sourceIndex) && cited.length < MAX_CITED_SOURCES_PER_CLAUSE)
        cited.push(sourceIndex);
    }
  }
  const entity = missingEntity(context, read.entities, clause.masked);
  if (entity !== null) {
    judged.failure = { reason: "entity_not_found", ...(explain ? { detail: { entity } } : {}) };
    return judged;
  }
  const claimText = clause.text;
  if (cited.length > 0) {
    // One citation per cited source whose best span holds some of the clause's terms.
    const found = terms.map(() => false);
    for (const sourceIndex of cited) {
      const span = index.bestSpans(terms, counted, [sourceIndex], counter)[0];
      if (span === undefined || span.foundAll === 0) continue;
      if (judged.best === undefined || span.support > judged.best.support) judged.best = span;
      for (const [term, has] of span.found.entries()) if (has) found[term] = true;
      judged.supportSources.push(sourceIndex);
      judged.citations.push(citationOf(index, claimText, clause.range, span));
      pushPooled(judged, index, claimText, clause.range, span);
    }
    const support = shareFound(found, counted);
    // A sentence about the sources needs no support for its words (looked at only for a clause short of it);
    // its names, numbers and quotations are still checked (docs/matching.md#answers).
    if (support < SUPPORT_THRESHOLD && !isAboutSources(clause.masked)) {
      judged.failure =
        wrongSource(context, judged, read, clause.masked, support) ?? tooLittleSupport(context, read, found);
      return judged;
    }
    if (!isAboutSources(clause.masked)) judged.missing = missingTerms(read, found, clause);
  } else {
    const span = index.bestSpans(terms, counted, null, counter)[0];
    judged.best = span;
    if ((span === undefined || span.support < SUPPORT_THRESHOLD) && !isAboutSources(clause.masked)) {
      judged.failure = tooLittleSupport(context, read, span?.found ?? terms.map(() => false));
      return judged;
    }
    if (span !== undefined && span.foundAll > 0) {
      judged.supportSources.push(span.sourceIndex);
      judged.citations.push(citationOf(index, claimText, clause.range, span));
      pushPooled(judged, index, claimText, clause.range, span);
      if (!isAboutSources(clause.masked)) judged.missing = missingTerms(read, span.found, clause);
    }
  }
  const denied = deniedWord(context, read, judged.best, clause.masked);
  if (denied !== null) {
    judged.failure = wrongSource(context, judged, read, clause.masked, 0) ?? {
      reason: "no_support",
      ...(explain ? { detail: { words: [denied] } } : {}),
    };
    judged.missing = [];
    return judged;
  }
  // A sentence about the sources that no span supports holds no word of any source, so its quotations are in
  // none (quote_not_found) and are not searched for.
  for (const quotation of quotationsOf(clause, claim)) {
    judged.quotations.push({
      quotation,
      pieces: elidedPieces(quotation),
      sourceIndexes: cited.length > 0 ? cited : judged.supportSources,
    });
  }
  return judged;
}

// `wrong_source` when sources the clause does not cite support it better than `support` (the share its cited
// sources hold) and wholly: its numbers where that support holds them (`firstNumberOutside`), its entities
// in that source (`entitiesHeldBy`), no word of it denied there; `judged.best` becomes the first such span. Null
// when none does, or the clause cites none.
function wrongSource(
  context: CheckContext,
  judged: JudgedClause,
  read: ClauseTerms,
  masked: string,
  support: number,
): NonNullable<JudgedClause["failure"]> | null {
  const { index, counter, options } = context;
  const cited = judged.cited;
  if (cited.length === 0) return null;
  const numbers = numberCheckOf(options.checkNumbers);
  const numbersText =
    numbers === undefined || !HAS_DIGIT.test(masked) ? "" : numbersToCheck(masked, index, context.question);
  const elsewhere = index
    .bestSpans(read.terms, read.counted, null, counter)
    .filter(
      (span) =>
        !cited.includes(span.sourceIndex) &&
        span.support >= SUPPORT_THRESHOLD &&
        span.support > support &&
        (numbersText === "" ||
          firstNumberOutside(context, new Map([[span.sourceIndex, spanRanges(span)]]), numbersText) ===
            null) &&
        entitiesHeldBy(context, read.entities, masked, span.sourceIndex) &&
        deniedWord(context, read, span, masked) === null,
    );
  return namedElsewhere(context, judged, elsewhere);
}

// `wrong_source` naming the sources of `elsewhere` (the first its best span), or null when there is none.
function namedElsewhere(
  context: CheckContext,
  judged: JudgedClause,
  elsewhere: readonly SupportSpan[],
): NonNullable<JudgedClause["failure"]> | null {
  if (elsewhere.length === 0) return null;
  judged.best = elsewhere[0];
  return {
    reason: "wrong_source",
    detail: { foundIn: elsewhere.map((span) => context.ids[span.sourceIndex] as string) },
  };
}

// The first counted word of a clause that states no negation which its best span writes only as denied (`Never
// wash a shelf with water` against `Wash the shelf with water`), as the clause writes it; else null. Each span is
// read once per request (`deniedTerms`).
function deniedWord(
  context: CheckContext,
  read: ClauseTerms,
  best: SupportSpan | undefined,
  text: string,
): string | null {
  if (best === undefined || best.foundAll === 0) return null;
  const [start, end] = best.range;
  const key = `${best.sourceIndex}:${start}:${end}`;
  let denied = context.deniedTerms.get(key);
  if (denied === undefined) {
    const { lexicon } = context.index;
    const source = context.index.sources[best.sourceIndex] as PreparedSource;
    denied = deniedTerms(source.text, best.range, (word) => lexicon.entry(word).term, context.counter);
    context.deniedTerms.set(key, denied);
  }
  // The clause's own words are read only when its span denies something (most spans deny nothing).
  if (denied.size === 0 || statesNegation(text)) return null;
  for (const [index, id] of read.terms.entries()) {
    if (read.counted[index] && denied.has(id)) return read.words[index] as string;
  }
  return null;
}

// The failure of a clause whose support is below the threshold: `no_support`, or `number_not_found` for a
// clause of numbers only while numbers are checked (the number its sources lack is what failed).
function tooLittleSupport(
  context: CheckContext,
  read: ClauseTerms,
  found: readonly boolean[],
): NonNullable<JudgedClause["failure"]> {
  const explain = context.options.explain === true;
  if (read.numbersOnly && numberCheckOf(context.options.checkNumbers) !== undefined) {
    // The first number or code it lacks that is not the question's (else the first it lacks).
    const written =
      read.words.find((_, index) => read.counted[index] && !found[index]) ??
      read.words.find((_, index) => !found[index]) ??
      "";
    if (HAS_LETTER.test(written)) {
      return { reason: "entity_not_found", ...(explain ? { detail: { entity: written } } : {}) };
    }
    return {
      reason: "number_not_found",
      ...(explain ? { detail: { number: written, checked: "source" } } : {}),
    };
  }
  return {
    reason: "no_support",
    ...(explain ? { detail: { words: missingWords(read.words, found, read.counted) } } : {}),
  };
}

// The clause's counted words that `found` lacks, each with its range in the answer; none for a clause of
// numbers only (its numbers are the number check's).
function missingTerms(read: ClauseTerms, found: readonly boolean[], clause: Clause): JudgedClause["missing"] {
  if (read.numbersOnly) return [];
  const missing: JudgedClause["missing"] = [];
  for (const [index, word] of read.words.entries()) {
    if (!read.counted[index] || found[index]) continue;
    const start = clause.range[0] + (read.starts[index] as number);
    missing.push({ term: word, answerRange: [start, start + word.length] });
  }
  return missing;
}

// The words of a claim that passed its checks but that its spans lack (`partial`).
function partialTerms(claim: AnswerClaim, judged: Judged): AnswerPartialTerm[] {
  const terms: AnswerPartialTerm[] = [];
  for (const clause of judged.clauses) {
    if (clause.failure !== null) return [];
    for (const { term, answerRange } of clause.missing) terms.push({ claim: claim.text, term, answerRange });
  }
  return terms;
}

// A partially supported claim removed under `partial: "drop"`: `partial_support`, with the words it lacks.
function partialDrop(
  context: CheckContext,
  claim: AnswerClaim,
  judged: Judged,
  terms: readonly AnswerPartialTerm[],
): AnswerUnsupported {
  const clause = judged.clauses.find((each) => each.missing.length > 0) as JudgedClause;
  const words = terms.map((each) => each.term).slice(0, MAX_EXPLAINED_WORDS);
  return unsupportedOf(context, claim, clause, {
    reason: "partial_support",
    ...(context.options.explain === true ? { detail: { words } } : {}),
  });
}

function shareFound(found: readonly boolean[], counted: readonly boolean[]): number {
  let total = 0;
  let held = 0;
  for (const [index, isCounted] of counted.entries()) {
    if (!isCounted) continue;
    total++;
    if (found[index]) held++;
  }
  if (total > 0) return held / total;
  // Only the question's words: they must still be where the claim points.
  return found.length === 0 ? 1 : found.filter(Boolean).length / found.length;
}

function missingWords(
  words: readonly string[],
  found: readonly boolean[],
  counted: readonly boolean[],
): string[] {
  return words.filter((_, index) => counted[index] && !found[index]).slice(0, MAX_EXPLAINED_WORDS);
}

// A citation with its range and quote in the source as the caller gave it.
function asGiven(context: CheckContext, citation: AnswerCitation): AnswerCitation {
  const source = context.index.sources[context.indexOfId.get(citation.source) as number] as ReadableSource;
  if (source.offsets === null) return citation;
  return { ...citation, ...originalSpan(source, citation.range) };
}

function citationOf(
  index: SupportIndex,
  claim: string,
  answerRange: Range,
  span: SupportSpan,
): AnswerCitation {
  const source = index.sources[span.sourceIndex] as PreparedSource;
  return {
    claim,
    quote: source.text.slice(span.range[0], span.range[1]),
    source: source.id,
    range: [span.range[0], span.range[1]],
    support: roundSupport(span.support),
    answerRange: [answerRange[0], answerRange[1]],
  };
}

// The further sentences a span's support was pooled from, each a citation of its own (same source, claim and
// support).
function pushPooled(
  judged: JudgedClause,
  index: SupportIndex,
  claim: string,
  answerRange: Range,
  span: SupportSpan,
): void {
  for (const range of span.more ?? []) {
    judged.supportSources.push(span.sourceIndex);
    judged.citations.push(citationOf(index, claim, answerRange, { ...span, range }));
  }
}

const roundSupport = (value: number): number => Math.round(value * 10_000) / 10_000;

// Names, codes and identifiers: a word with a capital after the clause's first word, a word of two or more
// capitals, or a letter followed by digits somewhere in it (`A320`, `Q3`).
const CAPITALISED = /^\p{Lu}/u;
const ALL_CAPITALS = /^\p{Lu}{2,}$/u;
const CODE = /^\p{L}[\p{L}\p{M}]*\p{N}/u;
// Two-letter capitals are mostly titles and common abbreviations (`Dr`, `Jr`, `UK`, `TV`), not names.
const MIN_ENTITY_LETTERS = 3;

/**
 * The first entity of the clause that no source (or, with `sourceIndex`, not that source) and not the question
 * holds, as written or in an equivalent form (`equivalences.ts`); else null.
 */
function missingEntity(
  context: CheckContext,
  entities: ClauseTerms["entities"],
  text: string,
  sourceIndex: number | null = null,
): string | null {
  const { index } = context;
  const knows =
    sourceIndex === null
      ? (word: string, term: string | null) => index.knows(word, term)
      : (word: string, term: string | null) =>
          index.holds(sourceIndex, word) || (term !== null && index.holds(sourceIndex, term));
  let covered: CoveredRanges | undefined;
  for (const { word, term, written, start, end } of entities) {
    if (context.question.words.has(word) || context.question.terms.has(term)) continue;
    if (knows(word, term)) continue;
    if (keysOfWord(written, word).some((key) => knows(key, null) || context.answerInitials.has(key)))
      continue;
    // `Oct` where a source writes `October` (and the other way round), `km²` where it writes `square kilometres`.
    if (otherWrittenForms(word).some((form) => isKnownPhrase(knows, form))) continue;
    covered ??= coveredRanges(equivalentRanges(context, text, knows), context.counter);
    if (covers(covered, start, end, context.counter)) continue;
    return written;
  }
  return null;
}

// Whether one source holds every entity of a clause (`missingEntity` in that source alone).
const entitiesHeldBy = (
  context: CheckContext,
  entities: ClauseTerms["entities"],
  text: string,
  sourceIndex: number,
): boolean => missingEntity(context, entities, text, sourceIndex) === null;

/** Ranges sorted by start, with the furthest end of each prefix: `covers` asks in O(log n), not O(n). */
interface CoveredRanges {
  readonly starts: readonly number[];
  readonly furthestEnds: readonly number[];
}

// O(n log n) for n ranges (counted so, with `counter`).
function coveredRanges(ranges: Range[], counter?: StepCounter): CoveredRanges {
  if (counter !== undefined) counter.steps += ranges.length * Math.ceil(Math.log2(ranges.length + 1));
  ranges.sort((a, b) => a[0] - b[0]);
  const furthestEnds: number[] = [];
  let furthest = -1;
  for (const [, to] of ranges) {
    furthest = Math.max(furthest, to);
    furthestEnds.push(furthest);
  }
  return { starts: ranges.map(([from]) => from), furthestEnds };
}

// Whether some range holds [start, end): among the ranges starting at or before `start`, the furthest end.
function covers(
  { starts, furthestEnds }: CoveredRanges,
  start: number,
  end: number,
  counter?: StepCounter,
): boolean {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    if (counter !== undefined) counter.steps += 1;
    const middle = (low + high) >>> 1;
    if ((starts[middle] as number) <= start) low = middle + 1;
    else high = middle;
  }
  return low > 0 && (furthestEnds[low - 1] as number) >= end;
}

// Whether every word of a phrase of folded words occurs in the sources `knows` reads.
const isKnownPhrase = (knows: (word: string, term: string | null) => boolean, phrase: string): boolean =>
  phrase.split(" ").every((word) => knows(word, contentTerm(word)));

// The ranges of the clause's words that a source holds in another form: a country's name, form or demonym,
// a month, two words a source writes as one (`Tech Crunch` and `TechCrunch`). A run of capitalised words is
// not read as the expansion of an acronym a source writes: that would guess the expansion. O(clause).
function equivalentRanges(
  context: CheckContext,
  text: string,
  knows: (word: string, term: string | null) => boolean,
): Range[] {
  const ranges: Range[] = [];
  if (context.counter !== undefined) context.counter.steps += text.length;
  forEachEquivalenceKey(text, (key, start, end) => {
    if (key.startsWith("=initials:")) return;
    let held = knows(key, null);
    if (!held && key.startsWith("=join:")) held = knows(key.slice(6), null);
    if (held) ranges.push([start, end]);
  });
  return ranges;
}

// Adds to `wanted` the `=initials:` keys an entity of the claim can be looked up by in `missingEntity`
// (`keysOfWord` of a word in capitals), read as `clauseTerms` reads the clause's words: of the answer's
// acronyms, only these can count. A clause with no capital letter followed by another or by a dot (and no
// letter beyond ASCII) holds no word in capitals and is not read by words. O(claim).
function addWantedInitials(wanted: Set<string>, claim: AnswerClaim, counter: StepCounter): void {
  for (const clause of claim.clauses) {
    // Blanking framing out makes no word in capitals: a clause that holds none is read once, as it is.
    counter.steps += clause.masked.length;
    if (!mayHoldCapitals(clause.masked)) continue;
    const text = withoutFraming(clause.masked);
    forEachWord(text, (word, start, end) => {
      const key = initialsKeyOfWord(text.slice(start, end), word);
      if (key !== null) wanted.add(key);
    });
  }
}

// Whether `text` may hold a word in capitals (`NASM`, `U.S`): an ASCII capital followed by another or by a
// dot, or any character beyond ASCII. O(text).
function mayHoldCapitals(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 128) return true;
    if (code < 65 || code > 90) continue;
    const next = text.charCodeAt(at + 1);
    if ((next >= 65 && next <= 90) || next === 46 || next >= 128) return true;
  }
  return false;
}

// The acronyms an answer defines by a capitalised run whose every word a source holds (`National Air and
// Space Museum (NASM)` with the full name in a source), as `=initials:` keys: the acronym then counts as the
// name. Only the `wanted` keys are kept (`wantedInitials`), and with none wanted the answer is not read. Read
// in pieces of about `pieceChars` characters (`forEachEquivalenceKeyInPieces`), pausing after each. O(answer).
function* answerInitials(
  answer: string,
  wanted: ReadonlySet<string>,
  index: SupportIndex,
  pieceChars: number,
  counter: StepCounter,
): Generator<void, Set<string>> {
  const keys = new Set<string>();
  if (wanted.size === 0) return keys;
  // A run's capitalised words (its small words, `and`, `of`, need not be in a source) are each read once:
  // the starts of those no source holds are listed as the runs reach them (runs come in order of start, and
  // a run is read from a word's start to a word's end), so a run is held when none of them falls inside it.
  // Each of a word's runs (up to MAX_INITIALS) costs a lookup, not a reading of its words.
  const unknown: number[] = [];
  let firstUnknown = 0;
  let readTo = 0;
  yield* forEachEquivalenceKeyInPieces(
    answer,
    pieceChars,
    (key, start, end) => {
      if (key.length < 13 || !wanted.has(key)) return;
      if (end > readTo) {
        const from = Math.max(readTo, start);
        forEachWord(answer.slice(from, end), (word, at) => {
          if (answer.charCodeAt(from + at) !== word.charCodeAt(0) && !index.knows(word, null))
            unknown.push(from + at);
        });
        readTo = end;
      }
      while (firstUnknown < unknown.length && (unknown[firstUnknown] as number) < start) firstUnknown++;
      if (firstUnknown === unknown.length || (unknown[firstUnknown] as number) >= end) keys.add(key);
    },
    counter,
  );
  return keys;
}

// `isEntity` of `text.slice(start, end)`, without the slice for a word that starts with a lower-case ASCII
// letter (most words): it is a name only as a code, when its letters run into a digit.
function isEntityAt(text: string, start: number, end: number, sentenceStart: boolean): boolean {
  const first = text.charCodeAt(start);
  if (first < 97 || first > 122) return isEntity(text.slice(start, end), sentenceStart);
  for (let at = start + 1; at < end; at++) {
    const code = text.charCodeAt(at);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) continue;
    if (code >= 128) return isEntity(text.slice(start, end), sentenceStart);
    return code >= 48 && code <= 57;
  }
  return false;
}

function isEntity(written: string, sentenceStart: boolean): boolean {
  return (
    CODE.test(written) ||
    (written.length >= MIN_ENTITY_LETTERS &&
      (ALL_CAPITALS.test(written) || (!sentenceStart && CAPITALISED.test(written))))
  );
}

// Explicit quotations of a clause: text in straight or curly double quotes, or the whole claim on a `>` line.
const STRAIGHT_QUOTED = /"([^"\n]{1,2000})"/g;
const CURLY_QUOTED = /“([^”\n]{1,2000})”/g;
const WORDY = /[\p{L}\p{N}]/u;
const TRAILING_PUNCTUATION = ",.;:!?";

function quotationsOf(clause: Clause, claim: AnswerClaim): string[] {
  if (claim.blockQuote) return clause === claim.clauses[0] ? [claim.text] : [];
  const quotations: string[] = [];
  for (const pattern of [STRAIGHT_QUOTED, CURLY_QUOTED]) {
    for (const match of clause.masked.matchAll(pattern)) {
      // A comma or full stop inside the closing quote belongs to the sentence (`"Harbour Lights," which`).
      const quotation = trimTrailing(tidy(match[1] as string), TRAILING_PUNCTUATION);
      if (WORDY.test(quotation)) quotations.push(quotation);
    }
  }
  return quotations;
}

// An elision mark in a quotation: `[...]`, `[…]`, `...`, `…`.
const ELISION = /\[(?:\.\.\.|…)\]|\.\.\.|…/;
/** Characters a quotation's elision mark may stand for, at most: the words left out of one passage. */
const MAX_ELIDED_CHARS = 300;

/**
 * The pieces an elision mark cuts a quotation into (`mature, tasteful, and [...] sexy`: `mature, tasteful,
 * and` and `sexy`), those with a letter or digit; the quotation itself when it has none or one. O(m).
 */
export function elidedPieces(quotation: string): string[] {
  if (!ELISION.test(quotation)) return [quotation];
  const pieces = quotation
    .split(ELISION) // split cuts at every match, global flag or not
    .map((piece) => piece.trim())
    .filter((piece) => WORDY.test(piece));
  return pieces.length === 0 ? [quotation] : pieces;
}

// Whether the source holds every piece of an elided quotation, in order, each within MAX_ELIDED_CHARS of the
// one before: one passage quoted with words left out, never pieces gathered from anywhere. Each piece's first
// place is the one read (`findQuote`), so a piece that first occurs elsewhere fails, never passes.
function foundInOrder(source: PreparedSource, pieces: readonly string[], mode: MatchMode): boolean {
  let end = -1;
  for (const piece of pieces) {
    const range = findQuote(source, piece, mode);
    if (range === null) return false;
    if (end >= 0 && (range[0] < end || range[0] - end > MAX_ELIDED_CHARS)) return false;
    end = range[1];
  }
  return true;
}

/** The claim's final verdict: quotations and numbers checked where its support was found. Null when kept. */
function finishClaim(context: CheckContext, claim: AnswerClaim, judged: Judged): AnswerUnsupported | null {
  const { options, index } = context;
  const mode = options.mode ?? "strict";
  const explain = options.explain === true;
  const numbers = numberCheckOf(options.checkNumbers);
  for (const clause of judged.clauses) {
    let failure = clause.failure;
    if (failure === null) {
      for (const { quotation, pieces, sourceIndexes } of clause.quotations) {
        const found = sourceIndexes.some((sourceIndex) => {
          const source = index.sources[sourceIndex] as PreparedSource;
          if (pieces.length > 1) return foundInOrder(source, pieces, mode);
          return (
            findQuote(source, quotation, mode) !== null ||
            (mode === "strict" && foundUpToSpacing(source, quotation, context.counter))
          );
        });
        if (!found) {
          failure = {
            reason: "quote_not_found",
            ...(explain ? { detail: quotationMiss(index, quotation, sourceIndexes, mode) } : {}),
          };
          break;
        }
      }
    }
    if (failure === null && numbers !== undefined && HAS_DIGIT.test(clause.clause.masked)) {
      const spanValues = datedInSourceYear(context, clause, supportValues(context, clause, "quote"));
      const equivalent = withoutEquivalentNumbers(
        numbersToCheck(clause.clause.masked, index, context.question),
        numbers === "source" ? spanValues : supportValues(context, clause, numbers),
        spanValues,
      );
      const text = equivalent.text;
      const miss =
        equivalent.missing === null
          ? (numberMiss(clause, text, index, numbers, context.counter) ??
            (numbers === "source" ? numberOutsideSupport(context, clause, text) : null))
          : { number: equivalent.missing, checked: "source" as const };
      if (miss !== null) {
        failure = numbersElsewhere(context, clause, text, numbers) ?? {
          reason: "number_not_found",
          ...(explain ? { detail: miss } : {}),
        };
      }
    }
    if (failure !== null) return unsupportedOf(context, claim, clause, failure);
  }
  return null;
}

/**
 * Why a quotation was not found: the quotation, and in strict mode, when one of the sources holds it with only
 * its case different (its first letter, or other letters), which and as the source writes it. O(n + m) per
 * source, within the request's lenient searches announced before (`findQuote`).
 */
function quotationMiss(
  index: SupportIndex,
  quotation: string,
  sourceIndexes: readonly number[],
  mode: MatchMode,
): AnswerMiss {
  if (mode !== "strict") return { quotation };
  for (const sourceIndex of sourceIndexes) {
    const source = index.sources[sourceIndex] as PreparedSource;
    const range = findQuote(source, quotation, "lenient");
    if (range === null) continue;
    const differsOnlyIn = caseDifference(quotation, source.text.slice(range[0], range[1]));
    if (differsOnlyIn !== null)
      return { quotation, differsOnlyIn, sourceText: originalSpan(source as ReadableSource, range).quote };
  }
  return { quotation };
}

const SPACE_RUN = /\s+/g;
const FIRST_LETTER = /\p{L}/u;

/**
 * `first_letter_case` when two texts differ only in the case of the first letter, `case` when only in the case
 * of letters (whitespace runs read as one space), else null. O(m).
 */
export function caseDifference(quotation: string, written: string): "first_letter_case" | "case" | null {
  const a = quotation.replace(SPACE_RUN, " ").trim();
  const b = written.replace(SPACE_RUN, " ").trim();
  if (a.length !== b.length || a === b) return null;
  let differences = 0;
  let firstDifference = -1;
  for (let at = 0; at < a.length; at++) {
    if (a[at] === b[at]) continue;
    if ((a[at] as string).toLowerCase() !== (b[at] as string).toLowerCase()) return null;
    if (differences++ === 0) firstDifference = at;
  }
  return differences === 1 && firstDifference === a.search(FIRST_LETTER) ? "first_letter_case" : "case";
}

/**
 * `wrong_source` when a clause whose numbers its cited sources lack is supported, numbers and entities and all,
 * by sources it does not cite; else null.
 */
function numbersElsewhere(
  context: CheckContext,
  clause: JudgedClause,
  text: string,
  numbers: NumberCheck,
): JudgedClause["failure"] {
  const { index, counter } = context;
  // No source left that the clause does not cite: nothing to search.
  if (clause.cited.length === 0 || clause.cited.length >= index.sources.length) return null;
  const elsewhere = index.bestSpans(clause.terms, clause.counted, null, counter).filter((span) => {
    if (clause.cited.includes(span.sourceIndex) || span.support < SUPPORT_THRESHOLD) return false;
    if (!entitiesHeldBy(context, clause.entities, clause.clause.masked, span.sourceIndex)) return false;
    if (numbers === "source")
      return firstNumberOutside(context, new Map([[span.sourceIndex, spanRanges(span)]]), text) === null;
    return (
      explainNumbers(text, index.sources[span.sourceIndex] as PreparedSource, span.range, numbers) === null
    );
  });
  return namedElsewhere(context, clause, elsewhere);
}

// The number and date values (`valuesOf`) where the clause's numbers are checked: its supporting spans'
// sources (`source`, the default) or the spans themselves (`quote`, `row`); a clause that no span supports,
// its cited sources. Each source or span is read once per request.
function supportValues(
  context: CheckContext,
  clause: JudgedClause,
  numbers: NumberCheck,
): (value: string) => boolean {
  const sets: ReadonlySet<string>[] = [];
  const read = (key: string, text: string): void => {
    let held = context.spanValues.get(key);
    if (held === undefined) {
      held = valuesOf(text);
      if (context.counter !== undefined) context.counter.steps += text.length;
      context.spanValues.set(key, held);
    }
    sets.push(held);
  };
  const { sources } = context.index;
  if (clause.citations.length === 0) {
    for (const at of clause.cited) read(`${at}`, (sources[at] as PreparedSource).text);
  } else {
    for (const [position, citation] of clause.citations.entries()) {
      const at = clause.supportSources[position] as number;
      if (numbers === "source") read(`${at}`, (sources[at] as PreparedSource).text);
      else read(`${at}:${citation.range[0]}:${citation.range[1]}`, citation.quote);
    }
  }
  // Looked up per value, never merged: a clause costs its numbers × its places, not the places' size.
  const [only] = sets;
  if (sets.length === 1 && only !== undefined) return (value) => only.has(value);
  return (value) => {
    for (const held of sets) if (held.has(value)) return true;
    return false;
  };
}

// `held` widened by one reading: a full date (`2018-05-07`) is held where a supporting span writes its day and
// month with no year (`died on May 7`) and a dateline, title or headline of that span's source (`datelineNumbers`)
// holds its year: a dated page writes the days of its own year so.
function datedInSourceYear(
  context: CheckContext,
  clause: JudgedClause,
  held: (value: string) => boolean,
): (value: string) => boolean {
  return (value) => {
    if (held(value)) return true;
    if (!FULL_DATE.test(value) || !held(`md:${value.slice(5)}`)) return false;
    const year = value.slice(0, 4);
    return clause.supportSources.some((sourceIndex) =>
      context.index.datelineNumbers(sourceIndex, context.counter).has(year),
    );
  };
}

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

// With `source` numbers (answer mode's default), a number counts only where a span supporting the clause holds
// it (or the sentence beside it, or the source's dateline): the first number of `text` that the source holds
// only elsewhere, with the sentence it was seen in; null when every number is in its support (or the clause
// has no span: a sentence about the sources).
function numberOutsideSupport(context: CheckContext, clause: JudgedClause, text: string): NumberMiss | null {
  if (clause.citations.length === 0) return null;
  const places = new Map<number, Range[]>();
  for (const [position, citation] of clause.citations.entries()) {
    const sourceIndex = clause.supportSources[position] as number;
    places.set(sourceIndex, [...(places.get(sourceIndex) ?? []), citation.range]);
  }
  const outside = firstNumberOutside(context, places, text);
  if (outside === null) return null;
  const first = clause.citations[0] as AnswerCitation;
  const firstSource = context.index.sources[clause.supportSources[0] as number] as PreparedSource;
  const miss: NumberMiss = {
    number: outside.number,
    checked: "quote",
    text: givenText(firstSource, first.range),
  };
  for (const sourceIndex of places.keys()) {
    const seen = context.index.sentenceHolding(sourceIndex, numberTerm(outside.key));
    if (seen === null) continue;
    miss.seen = givenText(context.index.sources[sourceIndex] as PreparedSource, seen);
    break;
  }
  return miss;
}

// The first number of `text` that no range of `places` (source index → ranges) holds, nor the sentence beside
// one, nor that source's dateline; null when there is none. O(text + the ranges' length).
function firstNumberOutside(
  context: CheckContext,
  places: ReadonlyMap<number, readonly Range[]>,
  text: string,
): { number: string; key: string } | null {
  const { index, counter } = context;
  // The number keys of each span (read once per request, however many clauses it supports) and of each
  // source's datelines, looked up per number: a clause costs its numbers × its spans, not the spans' length.
  const held: ReadonlySet<string>[] = [];
  // The page-wide numbers (datelines, title, headline) of the sources whose spans state no year of their own,
  // and of those that do, which stand for every number but a year: a sentence that names its year ("in the
  // third quarter of 2023") is not about the page's.
  const pageHeld: ReadonlySet<string>[] = [];
  const pageHeldButYears: ReadonlySet<string>[] = [];
  for (const [sourceIndex, ranges] of places) {
    const source = index.sources[sourceIndex] as PreparedSource;
    let statesYear = false;
    for (const [start, end] of ranges) {
      const cacheKey = `#${sourceIndex}:${start}:${end}`;
      let keys = context.spanValues.get(cacheKey);
      if (keys === undefined) {
        const spanKeys = new Set<string>();
        if (counter !== undefined) counter.steps += end - start;
        forEachNumberKey(source.text.slice(start, end), (key) => spanKeys.add(key));
        context.spanValues.set(cacheKey, spanKeys);
        keys = spanKeys;
      }
      held.push(keys);
      if (!statesYear) for (const key of keys) if (isYear(key)) statesYear = true;
    }
    (statesYear ? pageHeldButYears : pageHeld).push(index.datelineNumbers(sourceIndex, counter));
  }
  let outside: { number: string; key: string } | null = null;
  forEachNumberKey(text, (key, start, end) => {
    if (outside !== null || held.some((keys) => keys.has(key))) return;
    if (pageHeld.some((keys) => keys.has(key))) return;
    if (!isYear(key) && pageHeldButYears.some((keys) => keys.has(key))) return;
    const term = numberTerm(key);
    for (const [sourceIndex, ranges] of places) if (index.besideRanges(sourceIndex, ranges, term)) return;
    outside = { number: text.slice(start, end), key };
  });
  return outside;
}

// A number key that reads as a year (1500 to 2099).
const YEAR_KEY = /^(?:1[5-9]|20)\d\d$/;
const isYear = (key: string): boolean => YEAR_KEY.test(key);

// The ranges of a span: its window and the sentences pooled into it.
const spanRanges = (span: SupportSpan): Range[] => [span.range, ...(span.more ?? [])];

// The lines a range stands on, from the start of its first to the end of its last (as `explainRowNumbers`
// reports them). O(those lines).
function linesOf(text: string, [start, end]: Range): Range {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const lineEnd = text.indexOf("\n", Math.max(start, end - 1));
  return [lineStart, lineEnd < 0 ? text.length : lineEnd];
}

// The text of `range` of a source as read (`readableSource`) in the source as the caller gave it, clipped for
// `detail`: what a caller reads in `detail` is in their own text.
const givenText = (source: PreparedSource, range: Range): string =>
  clip(originalSpan(source as ReadableSource, range).quote);

const clip = (text: string): string =>
  text.length > MAX_EXPLAIN_TEXT_CHARS ? `${text.slice(0, MAX_EXPLAIN_TEXT_CHARS)}…` : text;

// The clause text whose numbers are checked: context numbers (the question's, spelled small numbers, years
// of short ranges, untallied scorelines) blanked out, offsets kept.
function numbersToCheck(masked: string, index: SupportIndex, question: QuestionTerms): string {
  return withoutQuestionNumbers(withoutSpelledNumbers(untalliedScorelines(masked, index), index), question);
}

// The first number of `text` (the clause's, from numbersToCheck) that none of its supporting spans' sources
// holds (per the number check), or null. A sentence about the sources that no span supports has its numbers
// looked for anywhere in the sources it cites (at most MAX_CITED_SOURCES_PER_CLAUSE), or, uncited, in the
// index of all sources' numbers (so its cost does not grow with the number of sources).
function numberMiss(
  clause: JudgedClause,
  text: string,
  index: SupportIndex,
  numbers: NumberCheck,
  counter?: StepCounter,
): NumberMiss | null {
  if (clause.citations.length === 0 && clause.cited.length === 0) {
    if (counter !== undefined) counter.steps += text.length;
    let missing: string | null = null;
    forEachNumberKey(text, (key, start, end) => {
      if (missing === null && !index.knows(numberTerm(key), null)) missing = text.slice(start, end);
    });
    return missing === null ? null : { number: missing, checked: "source" };
  }
  const places =
    clause.citations.length > 0
      ? clause.citations.map((citation, position) => ({
          source: index.sources[clause.supportSources[position] as number] as PreparedSource,
          range: citation.range,
          check: numbers,
        }))
      : clause.cited.map((at) => {
          const source = index.sources[at] as PreparedSource;
          return { source, range: [0, source.text.length] as Range, check: "source" as const };
        });
  let first: NumberMiss | null = null;
  for (const { source, range, check } of places) {
    // Each place reads the clause's numbers (the source's are read once per request).
    if (counter !== undefined) counter.steps += text.length;
    const miss = explainNumbers(text, source, range, check);
    if (miss === null) return null;
    // A quote's text is the span's, and a line's the lines the span stands on, as the caller gave them.
    if (miss.text !== undefined && miss.checked === "quote") miss.text = givenText(source, range);
    else if (miss.text !== undefined && miss.checked === "line")
      miss.text = givenText(source, linesOf(source.text, range));
    first ??= miss;
  }
  return first;
}

// A scoreline is looked up only where the sources write scorelines themselves; where they tell the goals one by
// one, the tally is the reader's sum (docs/matching.md#answers).
function untalliedScorelines(text: string, index: SupportIndex): string {
  return index.writesScorelines() ? text : withoutScorelines(text);
}

// Small whole numbers are often spelled out in one text and written in digits in the other (`2 seasons`,
// `two seasons`).
const SPELLED = `zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen
sixteen seventeen eighteen nineteen twenty`.split(/\s+/);
const SMALL_NUMBER = /(?<![\p{L}\p{N}.,])\d{1,2}(?![\p{N}]|[.,]\p{N})/gu;

// Whether the sources hold any of the SPELLED words, asked once per index (its sources' words are read when
// it is built): sources that spell out no small number leave every clause's small numbers as they are.
const spellsSmall = new WeakMap<SupportIndex, boolean>();
function spellsSmallNumbers(index: SupportIndex): boolean {
  let spells = spellsSmall.get(index);
  if (spells === undefined) {
    spells = SPELLED.some((word) => index.knows(word, null));
    spellsSmall.set(index, spells);
  }
  return spells;
}

// A year written in full.
const FULL_YEAR = /(?<![\p{L}\p{N}.,])\d{4}(?![\p{N}]|[.,]\p{N})/gu;

// The clause with each small whole number blanked out when some source spells it out, and each year that
// ends a source's year range written short (`1998–99` holds 1999).
function withoutSpelledNumbers(text: string, index: SupportIndex): string {
  const spelled = !spellsSmallNumbers(index)
    ? text
    : text.replace(SMALL_NUMBER, (digits) => {
        const word = SPELLED[Number(digits)];
        return word !== undefined && index.knows(word, null) ? " ".repeat(digits.length) : digits;
      });
  const years = index.rangeEndYears();
  if (years.size === 0) return spelled;
  return spelled.replace(FULL_YEAR, (year) => (years.has(year) ? " ".repeat(year.length) : year));
}

// The clause with each number the question holds blanked out: the question's numbers are context.
function withoutQuestionNumbers(text: string, question: QuestionTerms): string {
  if (question.numbers.size === 0) return text;
  const parts: string[] = [];
  let at = 0;
  forEachNumberKey(text, (key, start, end) => {
    if (!question.numbers.has(key)) return;
    parts.push(text.slice(at, start), " ".repeat(end - start));
    at = end;
  });
  parts.push(text.slice(at));
  return parts.join("");
}

function numberCheckOf(option: CheckNumbers | undefined): NumberCheck | undefined {
  if (option === undefined || option === true) return "source";
  return option === false ? undefined : option;
}

function unsupportedOf(
  context: CheckContext,
  claim: AnswerClaim,
  clause: JudgedClause,
  failure: NonNullable<JudgedClause["failure"]>,
): AnswerUnsupported {
  const entry: AnswerUnsupported = {
    claim: claim.text,
    reason: failure.reason,
    answerRange: [claim.range[0], claim.range[1]],
  };
  const best = clause.best;
  if (best !== undefined && best.foundAll > 0) {
    const source = context.index.sources[best.sourceIndex] as ReadableSource;
    const { quote, range } = originalSpan(source, best.range);
    entry.source = source.id;
    entry.quote = quote;
    entry.range = range;
    entry.support = roundSupport(best.support);
  }
  if (failure.detail !== undefined) entry.detail = failure.detail;
  return entry;
}

// An unsupported entry without its best span: its claim, reason, answer range and detail.
function withoutBestSpan({ source: _s, quote: _q, range: _r, support: _p, ...entry }: AnswerUnsupported) {
  return entry;
}

/**
 * `range` cut at its line breaks, each piece pushed to `spans`: a claim whose marker stands on a later line
 * (a line of markers only) spans lines, and every piece of it goes, the marker too. O(range).
 */
/** An answer's coverage: kept claims over judged claims, 0 when none was judged. */
export function coverageOf(kept: number, judged: number): number {
  return judged === 0 ? 0 : kept / judged;
}

/**
 * The answer's text without the given claims (their `answerRange`s, in answer order), as a check of the whole
 * answer cuts it: line by line, markdown kept valid (`removeSpans`). O(answer).
 */
export function answerWithoutClaims(answer: string, claimRanges: readonly Range[]): string {
  const dropped: Range[] = [];
  for (const range of claimRanges) pushByLine(answer, range, dropped);
  return removeSpans(answer, dropped);
}

function pushByLine(answer: string, [start, end]: Range, spans: Range[]): void {
  let from = start;
  for (let at = start; at < end; at++) {
    if (answer.charCodeAt(at) !== 10) continue;
    if (at > from) spans.push([from, at]);
    from = at + 1;
  }
  if (end > from) spans.push([from, end]);
}

/**
 * The answer without the removed claims' spans, still valid markdown (`keptLine`): an emphasis whose other
 * half was cut goes too, and a line left with no letter or digit, or with only the bold lead-in of what was
 * cut, goes whole. O(n).
 * `spans` come in increasing order and never cross a line break (`pushByLine` cuts them).
 */
export function removeSpans(answer: string, spans: readonly Range[], counter?: StepCounter): string {
  if (spans.length === 0) return answer;
  const lines: string[] = [];
  let spanIndex = 0;
  let lineStart = 0;
  while (lineStart <= answer.length) {
    const newline = answer.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? answer.length : newline;
    if (counter !== undefined) counter.steps += lineEnd - lineStart + 1;
    const cuts: Range[] = [];
    while (spanIndex < spans.length && (spans[spanIndex] as Range)[0] < lineEnd) {
      const [start, end] = spans[spanIndex] as Range;
      // The spaces after a removed claim go with it.
      let at = end;
      while (at < lineEnd && (answer[at] === " " || answer[at] === "\t")) at++;
      if (counter !== undefined) counter.steps += 1 + at - end;
      cuts.push([start, at]);
      spanIndex++;
    }
    if (cuts.length === 0) lines.push(answer.slice(lineStart, lineEnd));
    else {
      const kept = keptLine(answer, lineStart, lineEnd, cuts, counter);
      if (kept !== null) lines.push(kept);
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return lines.join("\n");
}
