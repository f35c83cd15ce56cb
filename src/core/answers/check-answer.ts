import type { Steps } from "../../util.js";
import { explainNumbers, type NumberCheck } from "../claims/index.js";
import { type PreparedSource, prepareSources } from "../prepared-source.js";
import { expectQuotes, findQuote } from "../quotes/index.js";
import type { StepCounter } from "../step-counter.js";
import { forEachWord } from "../text/index.js";
import type { CheckNumbers, MatchMode, NumberMiss, Range, Source } from "../types.js";
import { isAboutSources } from "./about-sources.js";
import { type AnswerClaim, answerClaims, type Clause, tidy } from "./answer-claims.js";
import { findMarkers, resolveMarkerName } from "./markers.js";
import { expectSpacedQuotation, foundUpToSpacing } from "./quotation-spacing.js";
import { withoutScorelines } from "./scorelines.js";
import {
  codeBefore,
  contentTerm,
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
  /**
   * Characters of best spans (`quote`) the unsupported entries carry together, at most: from the first entry
   * whose span would pass it, entries are listed without their best span (`source`, `quote`, `range`,
   * `support`), so an answer of many dropped sentences cannot multiply into a result many times its size.
   */
  maxBestSpanChars?: number | undefined;
}

/**
 * An answer refused by `maxClaims`: how many claims and clauses, or markers, were counted before the count
 * stopped (one past the cap).
 */
export interface TooManyClaims {
  tooManyClaims: number;
  counted: "claims and clauses" | "markers";
}

/** Why a claim of an answer was removed. */
export type AnswerReason =
  | "no_support"
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

/** The outcome of checking a plain answer. */
export interface AnswerResult {
  /** The answer with its removed claims cut out. */
  text: string;
  citations: AnswerCitation[];
  unsupported: AnswerUnsupported[];
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

/** Checks a plain answer with citation markers against sources (see `answerCheckSteps`). */
export function checkAnswer(
  sources: readonly Source[],
  answer: string,
  options: AnswerCheckOptions = {},
  counter?: StepCounter,
): AnswerResult {
  const { maxClaims: _, ...unbounded } = options;
  const steps = answerCheckSteps(sources, answer, unbounded, Number.POSITIVE_INFINITY, counter);
  for (let step = steps.next(); ; step = steps.next())
    if (step.done === true) return step.value as AnswerResult;
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
  sources: readonly Source[],
  answer: string,
  options: AnswerCheckOptions,
  stepBudget: number,
  counter?: StepCounter,
): Steps<AnswerResult | TooManyClaims> {
  const maxClaims = options.maxClaims ?? Number.POSITIVE_INFINITY;
  // The caps come before any work that grows with the claims: the markers are counted in one pass that stops
  // past twice the cap, and the claims as they are read, stopping at the first past the cap.
  const found = findMarkers(answer, 2 * maxClaims);
  const tally = counter ?? { steps: 0 };
  tally.steps += answer.length;
  if (found.markers.length > 2 * maxClaims)
    return { tooManyClaims: found.markers.length, counted: "markers" };
  const claims: AnswerClaim[] = [];
  let clauses = 0;
  let sliceEnd = tally.steps + SPLIT_STEPS_PER_CLAIM_CHAR * stepBudget;
  for (const claim of answerClaims(answer, found, tally)) {
    clauses += claim.clauses.length;
    if (clauses > maxClaims) return { tooManyClaims: clauses, counted: "claims and clauses" };
    claims.push(claim);
    if (tally.steps >= sliceEnd) {
      yield;
      sliceEnd = tally.steps + SPLIT_STEPS_PER_CLAIM_CHAR * stepBudget;
    }
  }
  // The sources are indexed only for an answer that will be checked.
  const prepared = [...prepareSources(sources).values()];
  const index = yield* indexSources(prepared, stepBudget * SOURCE_CHARS_PER_CLAIM_CHAR, counter);
  const context: CheckContext = {
    index,
    ids: prepared.map((source) => source.id),
    indexOfId: new Map(prepared.map((source, sourceIndex) => [source.id, sourceIndex])),
    question: questionTerms(options.question ?? []),
    options,
    ...(counter === undefined ? {} : { counter }),
  };
  const judged: (Judged | null)[] = [];
  let work = 0;
  for (const claim of claims) {
    if (work >= stepBudget) {
      yield;
      work = 0;
    }
    judged.push(judgeSupport(context, claim));
    work += 1 + claim.range[1] - claim.range[0];
  }
  // Every quotation is announced to its source before any is searched: many against one source are then
  // found in one pass (`findQuote`).
  for (const verdict of judged) {
    for (const clause of verdict?.clauses ?? []) {
      for (const { quotation, sourceIndexes } of clause.quotations) {
        for (const sourceIndex of sourceIndexes) {
          expectQuotes(prepared[sourceIndex] as PreparedSource, [quotation], options.mode ?? "strict");
          expectSpacedQuotation(prepared[sourceIndex] as PreparedSource, quotation, options.mode ?? "strict");
        }
      }
    }
  }
  const result: AnswerResult = { text: "", citations: [], unsupported: [], coverage: 0 };
  const dropped: Range[] = [];
  let kept = 0;
  let counted = 0;
  let spanCharsLeft = options.maxBestSpanChars ?? Number.POSITIVE_INFINITY;
  for (const [position, verdict] of judged.entries()) {
    if (work >= stepBudget) {
      yield;
      work = 0;
    }
    if (verdict === null) continue;
    counted++;
    const claim = claims[position] as AnswerClaim;
    work += 1 + claim.range[1] - claim.range[0];
    const miss = finishClaim(context, claim, verdict);
    if (miss === null) {
      kept++;
      result.citations.push(...verdict.clauses.flatMap((clause) => clause.citations));
    } else {
      // Once a span does not fit, no later one is kept either: the entries with spans come first.
      const spanChars = miss.quote?.length ?? 0;
      if (spanChars > spanCharsLeft) spanCharsLeft = -1;
      if (spanCharsLeft < 0 && miss.quote !== undefined) result.unsupported.push(withoutBestSpan(miss));
      else {
        spanCharsLeft -= spanChars;
        result.unsupported.push(miss);
      }
      dropped.push(claim.range);
    }
  }
  result.text = removeSpans(answer, dropped);
  result.coverage = counted === 0 ? 0 : kept / counted;
  return result;
}

interface CheckContext {
  index: SupportIndex;
  ids: string[];
  indexOfId: Map<string, number>;
  question: QuestionTerms;
  options: AnswerCheckOptions;
  counter?: StepCounter;
}

interface QuestionTerms {
  words: Set<string>;
  terms: Set<string>;
  /** The question's numbers by `numberKey`: an answer that repeats one is not checked for it. */
  numbers: Set<string>;
}

function questionTerms(messages: readonly string[]): QuestionTerms {
  const words = new Set<string>();
  const terms = new Set<string>();
  const numbers = new Set<string>();
  for (const message of messages) {
    forEachNumberKey(message, (key) => numbers.add(key));
    forEachWord(message, (word) => {
      words.add(word);
      const term = contentTerm(word);
      if (term !== null) terms.add(term);
    });
  }
  return { words, terms, numbers };
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
  quotations: { quotation: string; sourceIndexes: number[] }[];
  /** The sources the clause's markers name, by index (empty when it cites none). */
  cited: number[];
  terms: number[];
  counted: boolean[];
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
  const read: ClauseTerms = { terms: [], counted: [], words: [], entities: [], numbersOnly: false };
  const text = clause.masked;
  let first = true;
  forEachWord(text, (word, start, end) => {
    const id = lexicon.entry(word).term;
    const sentenceStart = first && startsClaim;
    first = false;
    if (id < 0) return;
    const term = lexicon.terms[id] as string;
    if (isEntityAt(text, start, end, sentenceStart)) {
      read.entities.push({ word, term, written: text.slice(start, end) });
    }
    if (seen.has(id)) return;
    seen.add(id);
    read.terms.push(id);
    read.counted.push(!question.terms.has(term));
    read.words.push(text.slice(start, end));
  });
  if (read.terms.length === 0) readNumberTerms(read, text, question, lexicon);
  return read;
}

// A clause with no content word (`1932`, `I-90`, `more than 1,600`) is looked up by its numbers: each distinct
// number a term, counted unless the question holds it, so its support is the source sentence holding them.
function readNumberTerms(read: ClauseTerms, text: string, question: QuestionTerms, lexicon: Lexicon): void {
  const seen = new Set<number>();
  forEachNumberKey(text, (key, start, end) => {
    // A code (`I-90`) is looked up as written, so `US-90` is not found where a source writes `I-90`.
    const code = codeBefore(text, start);
    const id = lexicon.id(numberTerm(key, code));
    if (seen.has(id)) return;
    seen.add(id);
    read.terms.push(id);
    read.counted.push(!question.numbers.has(key));
    read.words.push(text.slice(code === null ? start : start - code.length - 1, end));
  });
  read.numbersOnly = read.terms.length > 0;
}

/** A clause's content terms in order, whether each counts, their written forms, and its entities. */
interface ClauseTerms {
  terms: number[];
  counted: boolean[];
  words: string[];
  entities: { word: string; term: string; written: string }[];
  /** True when the clause holds no content word and its terms are its numbers (`readNumberTerms`). */
  numbersOnly: boolean;
}

/**
 * The support search of one claim, or null when the claim states nothing to check (no content word, number
 * or entity outside the question's words): such a sentence is context and is kept.
 */
function judgeSupport(context: CheckContext, claim: AnswerClaim): Judged | null {
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
  const entity = missingEntity(context, read.entities);
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
    }
    const support = shareFound(found, counted);
    // A sentence about the sources needs no support for its words (looked at only for a clause short of it);
    // its names, numbers and quotations are still checked (docs/matching.md#answers).
    if (support < SUPPORT_THRESHOLD && !isAboutSources(clause.masked)) {
      const elsewhere = index
        .bestSpans(terms, counted, null, counter)
        .filter(
          (span) =>
            !cited.includes(span.sourceIndex) && span.support >= SUPPORT_THRESHOLD && span.support > support,
        );
      if (elsewhere.length > 0) {
        judged.best = elsewhere[0];
        const foundIn = elsewhere.map((span) => context.ids[span.sourceIndex] as string);
        judged.failure = { reason: "wrong_source", detail: { foundIn } };
      } else {
        judged.failure = tooLittleSupport(context, read, found);
      }
      return judged;
    }
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
    }
  }
  // A sentence about the sources that no span supports holds no word of any source, so its quotations are in
  // none (quote_not_found) and are not searched for.
  for (const quotation of quotationsOf(clause, claim)) {
    judged.quotations.push({ quotation, sourceIndexes: cited.length > 0 ? cited : judged.supportSources });
  }
  return judged;
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

const roundSupport = (value: number): number => Math.round(value * 10_000) / 10_000;

// Names, codes and identifiers: a word with a capital after the clause's first word, a word of two or more
// capitals, or a letter followed by digits somewhere in it (`A320`, `Q3`).
const CAPITALISED = /^\p{Lu}/u;
const ALL_CAPITALS = /^\p{Lu}{2,}$/u;
const CODE = /^\p{L}[\p{L}\p{M}]*\p{N}/u;
// Two-letter capitals are mostly titles and common abbreviations (`Dr`, `Jr`, `UK`, `TV`), not names.
const MIN_ENTITY_LETTERS = 3;

/** The first entity of the clause that no source and not the question holds, as written; else null. */
function missingEntity(context: CheckContext, entities: ClauseTerms["entities"]): string | null {
  for (const { word, term, written } of entities) {
    if (context.question.words.has(word) || context.question.terms.has(term)) continue;
    if (!context.index.knows(word, term)) return written;
  }
  return null;
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
const TRAILING_PUNCTUATION = /[,.;:!?]+$/;

function quotationsOf(clause: Clause, claim: AnswerClaim): string[] {
  if (claim.blockQuote) return clause === claim.clauses[0] ? [claim.text] : [];
  const quotations: string[] = [];
  for (const pattern of [STRAIGHT_QUOTED, CURLY_QUOTED]) {
    for (const match of clause.masked.matchAll(pattern)) {
      // A comma or full stop inside the closing quote belongs to the sentence (`"Finding Dory," which`).
      const quotation = tidy(match[1] as string).replace(TRAILING_PUNCTUATION, "");
      if (WORDY.test(quotation)) quotations.push(quotation);
    }
  }
  return quotations;
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
      for (const { quotation, sourceIndexes } of clause.quotations) {
        const found = sourceIndexes.some((sourceIndex) => {
          const source = index.sources[sourceIndex] as PreparedSource;
          return (
            findQuote(source, quotation, mode) !== null ||
            (mode === "strict" && foundUpToSpacing(source, quotation, context.counter))
          );
        });
        if (!found) {
          failure = { reason: "quote_not_found", ...(explain ? { detail: { quotation } } : {}) };
          break;
        }
      }
    }
    if (failure === null && numbers !== undefined && HAS_DIGIT.test(clause.clause.masked)) {
      const text = numbersToCheck(clause.clause.masked, index, context.question);
      const miss = numberMiss(clause, text, index, numbers, context.counter);
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
 * `wrong_source` when a clause whose numbers its cited sources lack is supported, numbers and all, by sources
 * it does not cite; else null.
 */
function numbersElsewhere(
  context: CheckContext,
  clause: JudgedClause,
  text: string,
  numbers: NumberCheck,
): JudgedClause["failure"] {
  if (clause.cited.length === 0) return null;
  const { index, counter } = context;
  const elsewhere = index.bestSpans(clause.terms, clause.counted, null, counter).filter((span) => {
    if (clause.cited.includes(span.sourceIndex) || span.support < SUPPORT_THRESHOLD) return false;
    return (
      explainNumbers(text, index.sources[span.sourceIndex] as PreparedSource, span.range, numbers) === null
    );
  });
  if (elsewhere.length === 0) return null;
  clause.best = elsewhere[0];
  return {
    reason: "wrong_source",
    detail: { foundIn: elsewhere.map((span) => context.ids[span.sourceIndex] as string) },
  };
}

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

// A year written in full.
const FULL_YEAR = /(?<![\p{L}\p{N}.,])\d{4}(?![\p{N}]|[.,]\p{N})/gu;

// The clause with each small whole number blanked out when some source spells it out, and each year that
// ends a source's year range written short (`2007–08` holds 2008).
function withoutSpelledNumbers(text: string, index: SupportIndex): string {
  const spelled = text.replace(SMALL_NUMBER, (digits) => {
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
    const source = context.index.sources[best.sourceIndex] as PreparedSource;
    entry.source = source.id;
    entry.quote = source.text.slice(best.range[0], best.range[1]);
    entry.range = [best.range[0], best.range[1]];
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
 * The answer without the removed claims' spans; a line left with no letter or digit goes whole. O(n).
 * `spans` come in increasing order and never cross a line break.
 */
export function removeSpans(answer: string, spans: readonly Range[]): string {
  if (spans.length === 0) return answer;
  const lines: string[] = [];
  let spanIndex = 0;
  let lineStart = 0;
  while (lineStart <= answer.length) {
    const newline = answer.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? answer.length : newline;
    let kept = "";
    let at = lineStart;
    let cut = false;
    while (spanIndex < spans.length && (spans[spanIndex] as Range)[0] < lineEnd) {
      const [start, end] = spans[spanIndex] as Range;
      kept += answer.slice(at, start);
      at = end;
      // The spaces after a removed claim go with it.
      while (at < lineEnd && (answer[at] === " " || answer[at] === "\t")) at++;
      cut = true;
      spanIndex++;
    }
    kept += answer.slice(at, lineEnd);
    if (!cut) lines.push(kept);
    else if (WORDY.test(kept)) lines.push(kept.trimEnd());
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return lines.join("\n");
}
