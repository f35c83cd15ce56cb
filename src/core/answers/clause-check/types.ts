import type { StepCounter } from "../../step-counter.js";
import type { CheckNumbers, MatchMode, NumberMiss, Range } from "../../types.js";
import type { Clause } from "../answer-claims.js";
import type { SpanPlace, SupportIndex, SupportSpan } from "../support.js";

// What the checks of a clause share: the result entries they make, the check's context, and a clause as read
// and as judged.

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

/** The options of an answer check (`AnswerCheckOptions`) that its clauses' checks read. */
export interface JudgingOptions {
  mode?: MatchMode | undefined;
  checkNumbers?: CheckNumbers | undefined;
  explain?: boolean | undefined;
}

/** What every check of one answer's clauses reads: the sources' index, the question, caches per request. */
export interface CheckContext {
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
  options: JudgingOptions;
  counter?: StepCounter;
}

/** The user's messages as read for the check: their words, terms, numbers and dates are context. */
export interface QuestionTerms {
  words: Set<string>;
  terms: Set<string>;
  /** The question's numbers by `numberKey`: an answer that repeats one is not checked for it. */
  numbers: Set<string>;
  /** The question's full dates (`forEachDate`): an answer that repeats one gets no support from it. */
  dates: Set<string>;
}

/** A claim after the support search: each clause's citations or its first failure. */
export interface Judged {
  clauses: JudgedClause[];
}

/** A quotation of a clause and the pieces an elision mark (`[...]`, `…`) cuts it into (itself when none). */
export interface ClauseQuotation {
  quotation: string;
  pieces: string[];
}

/** Why a clause failed, and what `explain` tells of it. */
export interface ClauseFailure {
  reason: AnswerReason;
  detail?: NumberMiss | AnswerMiss;
}

/** A clause after the support search: its citations or its failure, and what the final checks read. */
export interface JudgedClause {
  clause: Clause;
  citations: AnswerCitation[];
  /** The sources the clause's support comes from, by index: numbers and quotations are checked there. */
  supportSources: number[];
  /** The best span, without which terms it holds once the clause is judged (`settle`). */
  best: SpanPlace | undefined;
  failure: ClauseFailure | null;
  /** Each quotation, the pieces an elision mark (`[...]`, `…`) cuts it into (itself when none), its sources. */
  quotations: { quotation: string; pieces: string[]; sourceIndexes: number[] }[];
  /**
   * A kept clause with quotations whose numbers may send it to another source (`numbersElsewhere`): the other
   * sources' spans that may support it, each source told the quotations before any is searched.
   */
  elsewhere?: SupportSpan[];
  /**
   * A `wrong_source` failure of a clause with quotations, named before quotations are searched: its sources
   * (`spans`, told the quotations) are named only when they hold each one (`confirmElsewhere`); else the verdict
   * is `fallback`, with `best` its span.
   */
  pendingElsewhere?: {
    spans: SupportSpan[];
    quotations: ClauseQuotation[];
    fallback: ClauseFailure;
    best: SpanPlace | undefined;
  };
  /** The sources the clause's markers name, by index (empty when it cites none). */
  cited: number[];
  /**
   * The clause's terms, whether each counts, and its entities (`clauseTerms`; another source is named in
   * `foundIn` only when it holds them all): while it is judged, and after only for a clause that
   * `numbersElsewhere` may search again (`keepsTerms`). Released otherwise, so that an answer's thousands of
   * clauses do not hold their arrays until its quotations are searched.
   */
  read: Pick<ClauseTerms, "terms" | "counted" | "entities"> | null;
  /** The clause's counted words that none of its spans holds, with their answer ranges (none when it failed). */
  missing: { term: string; answerRange: Range }[];
}

/** A clause's content terms in order, whether each counts, their written forms, and its entities. */
export interface ClauseTerms {
  terms: number[];
  counted: boolean[];
  words: string[];
  /** Where each of `words` starts in the clause's text. */
  starts: number[];
  entities: { word: string; term: string; written: string; start: number; end: number }[];
  /** True when the clause holds no content word and its terms are its numbers (`readNumberTerms`). */
  numbersOnly: boolean;
}
