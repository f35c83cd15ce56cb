import { explainNumbers, type NumberCheck } from "../../claims/index.js";
import type { PreparedSource } from "../../prepared-source.js";
import { forEachWord } from "../../text/index.js";
import { otherWrittenForms } from "../abbreviations.js";
import type { AnswerClaim, Clause } from "../answer-claims.js";
import { deniedTerms, statesNegation } from "../negation.js";
import { contentTerm, type SpanPlace, type SupportSpan } from "../support.js";
import { HAS_DIGIT } from "./clause-terms.js";
import { entitiesHeldBy, isCaselessLetters } from "./entities.js";
import { unsupportedOf } from "./entries.js";
import { firstNumberOutside, numberCheckOf, numbersToCheck, spanRanges } from "./number-checks.js";
import { announceQuotation, holdsQuotation } from "./quotations.js";
import type {
  AnswerPartialTerm,
  AnswerUnsupported,
  CheckContext,
  ClauseFailure,
  ClauseQuotation,
  ClauseTerms,
  Judged,
  JudgedClause,
} from "./types.js";

// The failures and partial terms of a clause: support elsewhere (`wrong_source`), a denied word, too little
// support, and the words its spans lack.

/** A clause's support at least this share of its content words holds it (docs/matching.md). */
export const SUPPORT_THRESHOLD = 0.4;

/** Words listed in an explained `no_support`. */
const MAX_EXPLAINED_WORDS = 12;

const HAS_LETTER = /\p{L}/u;

// `wrong_source` when sources the clause does not cite support it better than `support` (the share its cited
// sources hold) and wholly: its numbers where that support holds them (`firstNumberOutside`), its entities
// in that source (`entitiesHeldBy`), no word of it denied there, and (`confirmElsewhere`, once quotations are
// searched) each of its quotations; `judged.best` becomes the first such span. `fallback` when none does, or
// the clause cites none.
export function wrongSource(
  context: CheckContext,
  judged: JudgedClause,
  read: ClauseTerms,
  masked: string,
  support: number,
  quotations: readonly ClauseQuotation[],
  fallback: ClauseFailure,
): ClauseFailure {
  const { index, counter, options } = context;
  const cited = judged.cited;
  if (cited.length === 0) return fallback;
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
  if (elsewhere.length > 0 && quotations.length > 0) {
    tellQuotations(context, elsewhere, quotations);
    judged.pendingElsewhere = { spans: elsewhere, quotations: [...quotations], fallback, best: judged.best };
  }
  return namedElsewhere(context, judged, elsewhere) ?? fallback;
}

// Tells the sources of `spans` a clause's quotations, before any quotation of the request is searched.
function tellQuotations(
  context: CheckContext,
  spans: readonly SupportSpan[],
  quotations: readonly ClauseQuotation[],
): void {
  const mode = context.options.mode ?? "strict";
  for (const span of spans) {
    const source = context.index.sources[span.sourceIndex] as PreparedSource;
    for (const quotation of quotations) announceQuotation(source, quotation, mode);
  }
}

/**
 * A clause's `wrong_source` found before quotations were searched, confirmed now: the sources it named that
 * hold each of its quotations, or its `fallback` when none does.
 */
export function confirmElsewhere(context: CheckContext, judged: JudgedClause): ClauseFailure | null {
  const pending = judged.pendingElsewhere;
  if (pending === undefined) return judged.failure;
  const held = pending.spans.filter((span) => holdsQuotations(context, span.sourceIndex, pending.quotations));
  const named = namedElsewhere(context, judged, held);
  if (named !== null) return named;
  judged.best = pending.best;
  return pending.fallback;
}

// Whether a source holds each of the quotations, told to it before (`tellQuotations`).
const holdsQuotations = (
  context: CheckContext,
  sourceIndex: number,
  quotations: readonly ClauseQuotation[],
): boolean =>
  quotations.every((quotation) =>
    holdsQuotation(
      context.index.sources[sourceIndex] as PreparedSource,
      quotation,
      context.options.mode ?? "strict",
      context.counter,
    ),
  );

/**
 * For a kept clause with quotations that may yet fail on a number its cited sources lack (`numbersElsewhere`):
 * the other sources' spans that may support it, told its quotations now, before any is searched. O(clause).
 */
export function tellElsewhere(context: CheckContext, judged: JudgedClause, masked: string): void {
  const { index, counter } = context;
  const cited = judged.cited;
  if (judged.quotations.length === 0 || cited.length === 0 || cited.length >= index.sources.length) return;
  if (numberCheckOf(context.options.checkNumbers) === undefined || !HAS_DIGIT.test(masked)) return;
  const read = judged.read as NonNullable<JudgedClause["read"]>;
  judged.elsewhere = index
    .bestSpans(read.terms, read.counted, null, counter)
    .filter((span) => !cited.includes(span.sourceIndex) && span.support >= SUPPORT_THRESHOLD);
  tellQuotations(context, judged.elsewhere, judged.quotations);
}

// `wrong_source` naming the sources of `elsewhere` (the first its best span), or null when there is none.
export function namedElsewhere(
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
export function deniedWord(
  context: CheckContext,
  read: ClauseTerms,
  best: SpanPlace | undefined,
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
export function tooLittleSupport(
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

/**
 * Marks as found each counted word of the clause that its spans write another way (`otherWrittenForms`): a
 * quarter, month, weekday or unit symbol (`Q3`) whose spelled-out form's every word (`third quarter`) a
 * sentence of one of the spans holds, the title a sentence carries included. O(words × spans).
 */
export function foundInOtherForms(
  context: CheckContext,
  read: ClauseTerms,
  found: boolean[],
  spans: readonly SupportSpan[],
): void {
  if (spans.length === 0) return;
  for (let index = 0; index < read.words.length; index++) {
    if (found[index] || !read.counted[index]) continue;
    const written = read.words[index] as string;
    // Every other form is of Latin letters and digits, and a word of kana, CJK ideographs or Thai folds to none.
    if (isCaselessLetters(written, 0, 1)) continue;
    let folded = "";
    forEachWord(written, (word) => {
      folded ||= word;
    });
    const forms = otherWrittenForms(folded);
    if (forms.length === 0) continue;
    if (context.counter !== undefined) context.counter.steps += forms.length * spans.length;
    found[index] = forms.some((form) =>
      spans.some((span) =>
        form.split(" ").every((word) => {
          const term = contentTerm(word);
          return term === null || context.index.holdsWithin(span.sourceIndex, spanRanges(span), term);
        }),
      ),
    );
  }
}

// The clause's counted words that `found` lacks, each with its range in the answer; none for a clause of
// numbers only (its numbers are the number check's).
export function missingTerms(
  read: ClauseTerms,
  found: readonly boolean[],
  clause: Clause,
): JudgedClause["missing"] {
  if (read.numbersOnly) return [];
  const missing: JudgedClause["missing"] = [];
  for (let index = 0; index < read.words.length; index++) {
    if (!read.counted[index] || found[index]) continue;
    const word = read.words[index] as string;
    const start = clause.range[0] + (read.starts[index] as number);
    missing.push({ term: word, answerRange: [start, start + word.length] });
  }
  return missing;
}

// The words of a claim that passed its checks but that its spans lack (`partial`).
export function partialTerms(claim: AnswerClaim, judged: Judged): AnswerPartialTerm[] {
  const terms: AnswerPartialTerm[] = [];
  for (const clause of judged.clauses) {
    if (clause.failure !== null) return [];
    for (const { term, answerRange } of clause.missing) terms.push({ claim: claim.text, term, answerRange });
  }
  return terms;
}

// A partially supported claim removed under `partial: "drop"`: `partial_support`, with the words it lacks.
export function partialDrop(
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

export function shareFound(found: readonly boolean[], counted: readonly boolean[]): number {
  let total = 0;
  let held = 0;
  for (let index = 0; index < counted.length; index++) {
    if (!counted[index]) continue;
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

/**
 * `wrong_source` when a clause whose numbers its cited sources lack is supported, numbers, entities and
 * quotations and all, by sources it does not cite; else null. A clause with quotations looks only at the
 * sources told them (`tellElsewhere`).
 */
export function numbersElsewhere(
  context: CheckContext,
  clause: JudgedClause,
  text: string,
  numbers: NumberCheck,
): JudgedClause["failure"] {
  const { index, counter } = context;
  // No source left that the clause does not cite: nothing to search.
  // The terms are kept for every clause that gets past this test (`keepsTerms`).
  const read = clause.read;
  if (clause.cited.length === 0 || clause.cited.length >= index.sources.length || read === null) return null;
  const candidates =
    clause.quotations.length > 0
      ? (clause.elsewhere ?? [])
      : index.bestSpans(read.terms, read.counted, null, counter);
  const elsewhere = candidates.filter((span) => {
    if (clause.cited.includes(span.sourceIndex) || span.support < SUPPORT_THRESHOLD) return false;
    if (!entitiesHeldBy(context, read.entities, clause.clause.masked, span.sourceIndex)) return false;
    if (!holdsQuotations(context, span.sourceIndex, clause.quotations)) return false;
    if (numbers === "source")
      return firstNumberOutside(context, new Map([[span.sourceIndex, spanRanges(span)]]), text) === null;
    return (
      explainNumbers(text, index.sources[span.sourceIndex] as PreparedSource, span.range, numbers) === null
    );
  });
  return namedElsewhere(context, clause, elsewhere);
}
