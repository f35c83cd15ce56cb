import { runSteps, type Steps } from "../../util.js";
import { PAUSE } from "../pause.js";
import { type PreparedSource, prepareSources } from "../prepared-source.js";
import { expectQuotes } from "../quotes/index.js";
import type { StepCounter } from "../step-counter.js";
import { wordSteps } from "../text/index.js";
import type { CheckNumbers, MatchMode, Range, Source } from "../types.js";
import { isAboutSources } from "./about-sources.js";
import { type AnswerClaim, answerClaims, type Clause } from "./answer-claims.js";
import { coverageOf, pushByLine, removeSpans } from "./answer-text.js";
import {
  type AnswerCitation,
  type AnswerPartialTerm,
  type AnswerUnsupported,
  addWantedInitials,
  announceQuotation,
  answerInitials,
  asGiven,
  type CheckContext,
  type ClauseTerms,
  citationOf,
  clauseTerms,
  confirmElsewhere,
  datedInSourceYear,
  deniedWord,
  elidedPieces,
  foundInOtherForms,
  HAS_DIGIT,
  holdsQuotation,
  type Judged,
  type JudgedClause,
  missingEntity,
  missingTerms,
  numberCheckOf,
  numberMiss,
  numberOutsideSupport,
  numbersElsewhere,
  numbersToCheck,
  partialDrop,
  partialTerms,
  pushPooled,
  type QuestionTerms,
  quotationMiss,
  quotationsOf,
  readQuestionTerms,
  SUPPORT_THRESHOLD,
  shareFound,
  supportValues,
  tellElsewhere,
  tooLittleSupport,
  unsupportedOf,
  withoutBestSpan,
  wrongSource,
} from "./clause-check/index.js";
import { withoutEquivalentNumbers } from "./equivalences.js";
import { type AnswerMarkers, markerSteps, resolveMarkerName } from "./markers.js";
import { type ReadableSource, readableSource } from "./scraped-text.js";
import { indexSources, type SupportIndex, type SupportSpan } from "./support.js";

/** Options of an answer check. */
export interface AnswerCheckOptions {
  mode?: MatchMode | undefined;
  /** Answer mode checks numbers against the supporting source by default (`source`); `false` turns it off. */
  checkNumbers?: CheckNumbers | undefined;
  explain?: boolean | undefined;
  /** The user's messages: their words are context, not new facts. */
  question?: readonly string[] | undefined;
  /**
   * Where the first check that reads `question` keeps its terms, for checks of one question's answer in pieces
   * (a streamed answer, retries): the next reads them from here rather than the messages again.
   */
  questionTerms?: { read?: QuestionTerms } | undefined;
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
  /**
   * Leave the result's `text` empty rather than cut the dropped claims out of the answer: for a caller that cuts
   * the whole answer's text itself from its pieces' entries (`assembleAnswer`, a streamed answer's pieces).
   */
  withoutText?: boolean | undefined;
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
  // Runs a reader to its end, yielding whenever a slice's worth of steps has passed.
  function* sliced<T>(reader: Generator<unknown, T, void>): Steps<T> {
    for (;;) {
      const step = reader.next();
      if (step.done === true) return step.value;
      if (tally.steps >= sliceEnd) {
        yield;
        sliceEnd = tally.steps + sliceSteps;
      }
    }
  }
  const given = options.claims;
  const found = given === undefined ? yield* sliced(markerSteps(answer, 2 * maxClaims, tally)) : NO_MARKERS;
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
  const answerKeys = yield* sliced(answerInitials(answer, wanted, index, sliceSteps, tally));
  // The user's messages are read once per question, in pieces of a slice's worth, pausing between them.
  let question = options.questionTerms?.read;
  if (question === undefined) {
    question = yield* sliced(readQuestionTerms(options.question ?? [], sliceSteps, tally));
    if (options.questionTerms !== undefined) options.questionTerms.read = question;
  }
  const context: CheckContext = {
    index,
    ids: prepared.map((source) => source.id),
    indexOfId: new Map(prepared.map((source, sourceIndex) => [source.id, sourceIndex])),
    question,
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
    work += claimWork(claim);
  }
  // Every quotation is announced to its source before any is searched: many against one source are then
  // found in one pass (`findQuote`).
  for (const verdict of judged) {
    for (const clause of verdict?.clauses ?? []) {
      for (const clauseQuotation of clause.quotations) {
        const { quotation, sourceIndexes } = clauseQuotation;
        for (const sourceIndex of sourceIndexes) {
          announceQuotation(
            prepared[sourceIndex] as PreparedSource,
            clauseQuotation,
            options.mode ?? "strict",
          );
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
    work += claimWork(claim);
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
      if (options.withoutText !== true) pushByLine(answer, claim.range, dropped);
    }
  }
  result.text = options.withoutText === true ? "" : removeSpans(answer, dropped);
  result.coverage = coverageOf(kept, counted);
  if (options.claimTally !== undefined) {
    options.claimTally.judged += counted;
    options.claimTally.kept += kept;
  }
  if (options.bestSpanBudget !== undefined) options.bestSpanBudget.chars = spanCharsLeft;
  return result;
}

const NO_MARKERS: AnswerMarkers = { markers: [], hidden: [] };

/**
 * The work of judging or finishing a claim: a step a character, the characters of its clauses read by words at
 * their cost (`wordSteps`: a script without spaces goes through `Intl.Segmenter`). O(claim).
 */
function claimWork(claim: AnswerClaim): number {
  let words = 0;
  for (const clause of claim.clauses) words += wordSteps(clause.masked);
  return 1 + Math.max(claim.range[1] - claim.range[0], words);
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
    clauses.push(settle(context, judgeClause(context, claim, clause, read)));
  }
  return statesSomething ? { clauses } : null;
}

/**
 * A judged clause as it waits for its quotations to be searched: what only judging reads is released, so that an
 * answer's thousands of clauses do not hold it meanwhile. Its best span keeps where it stands, not which terms
 * it holds; its terms stay only when `numbersElsewhere` may read them again (a clause with digits that cites
 * some of the sources but not all, when numbers are checked). O(1) but for the digit test, O(clause).
 */
function settle(context: CheckContext, judged: JudgedClause): JudgedClause {
  const cited = judged.cited.length;
  const keepsTerms =
    cited > 0 &&
    cited < context.index.sources.length &&
    numberCheckOf(context.options.checkNumbers) !== undefined &&
    HAS_DIGIT.test(judged.clause.masked);
  if (!keepsTerms) judged.read = null;
  if (judged.best !== undefined) {
    const { found: _found, ...place } = judged.best as SupportSpan;
    judged.best = place;
  }
  return judged;
}

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
    read,
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
  const quotations = quotationsOf(clause, claim).map((quotation) => ({
    quotation,
    pieces: elidedPieces(quotation),
  }));
  if (cited.length > 0) {
    // One citation per cited source whose best span holds some of the clause's terms.
    const found = terms.map(() => false);
    const spans: SupportSpan[] = [];
    for (const sourceIndex of cited) {
      const span = index.bestSpans(terms, counted, [sourceIndex], counter)[0];
      if (span === undefined || span.foundAll === 0) continue;
      if (judged.best === undefined || span.support > judged.best.support) judged.best = span;
      for (let term = 0; term < span.found.length; term++) if (span.found[term] === true) found[term] = true;
      spans.push(span);
      judged.supportSources.push(sourceIndex);
      judged.citations.push(citationOf(index, claimText, clause.range, span));
      pushPooled(judged, index, claimText, clause.range, span);
    }
    foundInOtherForms(context, read, found, spans);
    const support = shareFound(found, counted);
    // A sentence about the sources needs no support for its words (looked at only for a clause short of it);
    // its names, numbers and quotations are still checked (docs/matching.md#answers).
    if (support < SUPPORT_THRESHOLD && !isAboutSources(clause.masked)) {
      const fallback = tooLittleSupport(context, read, found);
      judged.failure = wrongSource(context, judged, read, clause.masked, support, quotations, fallback);
      return judged;
    }
    if (!isAboutSources(clause.masked)) judged.missing = missingTerms(read, found, clause);
  } else {
    const span = index.bestSpans(terms, counted, null, counter)[0];
    judged.best = span;
    const found = span === undefined ? terms.map(() => false) : [...span.found];
    if (span !== undefined) foundInOtherForms(context, read, found, [span]);
    if (
      (span === undefined || shareFound(found, counted) < SUPPORT_THRESHOLD) &&
      !isAboutSources(clause.masked)
    ) {
      judged.failure = tooLittleSupport(context, read, found);
      return judged;
    }
    if (span !== undefined && span.foundAll > 0) {
      judged.supportSources.push(span.sourceIndex);
      judged.citations.push(citationOf(index, claimText, clause.range, span));
      pushPooled(judged, index, claimText, clause.range, span);
      if (!isAboutSources(clause.masked)) judged.missing = missingTerms(read, found, clause);
    }
  }
  const denied = deniedWord(context, read, judged.best, clause.masked);
  if (denied !== null) {
    judged.failure = wrongSource(context, judged, read, clause.masked, 0, quotations, {
      reason: "no_support",
      ...(explain ? { detail: { words: [denied] } } : {}),
    });
    judged.missing = [];
    return judged;
  }
  // A sentence about the sources that no span supports holds no word of any source, so its quotations are in
  // none (quote_not_found) and are not searched for.
  for (const quotation of quotations) {
    judged.quotations.push({ ...quotation, sourceIndexes: cited.length > 0 ? cited : judged.supportSources });
  }
  tellElsewhere(context, judged, clause.masked);
  return judged;
}

/** The claim's final verdict: quotations and numbers checked where its support was found. Null when kept. */
function finishClaim(context: CheckContext, claim: AnswerClaim, judged: Judged): AnswerUnsupported | null {
  const { options, index } = context;
  const mode = options.mode ?? "strict";
  const explain = options.explain === true;
  const numbers = numberCheckOf(options.checkNumbers);
  for (const clause of judged.clauses) {
    // A `wrong_source` named before quotations were searched names only the sources that hold them.
    let failure = confirmElsewhere(context, clause);
    if (failure === null) {
      for (const quotation of clause.quotations) {
        const { sourceIndexes } = quotation;
        const found = sourceIndexes.some((sourceIndex) =>
          holdsQuotation(index.sources[sourceIndex] as PreparedSource, quotation, mode, context.counter),
        );
        if (!found) {
          failure = {
            reason: "quote_not_found",
            ...(explain ? { detail: quotationMiss(index, quotation.quotation, sourceIndexes, mode) } : {}),
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
