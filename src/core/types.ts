/** How a quote is compared with a source: `strict` is boundary-exact, `lenient` compares word tokens. */
export type MatchMode = "strict" | "lenient";

/**
 * The `check_numbers` option: off, anywhere in the cited source, bound to the table row/column, or in the
 * claim's own quote.
 */
export type CheckNumbers = boolean | "source" | "row" | "quote";

/** One table cell a claim's number was checked against: its row label, column header and text. */
export interface CheckedCell {
  row: string;
  column: string;
  text: string;
}

/**
 * Why a number check dropped a claim: the claim's number that failed and what it was checked against:
 * the cells of the claim's row and column context (`cells`), the quoted line(s) (`line`), the claim's
 * quote (`quote`) or the whole source (`source`). `cells` lists at most MAX_EXPLAIN_CELLS cells and
 * `text` at most MAX_EXPLAIN_TEXT_CHARS characters.
 */
export interface NumberMiss {
  number: string;
  checked: "cells" | "line" | "quote" | "source";
  cells?: CheckedCell[];
  text?: string;
  /** Answer mode: the source sentence that holds the number, outside the spans that support the claim. */
  seen?: string;
}

/** `[start, end)` in UTF-16 code units into a source's original text. */
export type Range = [start: number, end: number];

/** A caller-supplied source chunk. */
export interface Source {
  id: string;
  text: string;
}

/** A claim as a model returns it; any field may be missing or wrong-typed before validation. */
export interface CandidateClaim {
  claim?: string | null | undefined;
  quote?: string | null | undefined;
  source?: string | null | undefined;
}

/** A grounded claim. Invariant: `quote === sourceText.slice(range[0], range[1])`. */
export interface Citation {
  claim: string;
  quote: string;
  source: string;
  range: Range;
}

/** Why a claim was removed. */
export type UnsupportedReason = "quote_not_found" | "unknown_source" | "number_not_found";

/** A claim that could not be grounded. */
export interface UnsupportedClaim {
  claim: string;
  reason: UnsupportedReason;
  /** With `number_not_found`: the number that failed and what it was checked against. */
  detail?: NumberMiss;
  /** The quote the model tried, as it wrote it; absent when it gave none. */
  quote?: string;
  /** The source id the model named, as it wrote it; absent when it named none. */
  source?: string;
  /**
   * With `quote_not_found` in strict mode: where the named source holds the quote under lenient matching
   * (case, punctuation or spacing differ), and that source text. Absent when lenient matching fails too.
   */
  near?: { quote: string; range: Range };
}

/** Options for checking claims. */
export interface ClaimCheckOptions {
  mode?: MatchMode | undefined;
  checkNumbers?: CheckNumbers | undefined;
  /** Add to each claim a number check dropped the `detail` of why. Default false. */
  explain?: boolean | undefined;
}

/** The outcome of checking a list of candidate claims. */
export interface ClaimsResult {
  text: string;
  citations: Citation[];
  unsupported: UnsupportedClaim[];
  coverage: number;
}

/** A field value as a model returns it. */
export interface CandidateField {
  value?: string | null | undefined;
  source?: string | null | undefined;
}

/** One extracted field after the check. */
export type FieldResult =
  | { value: string; source: string; range: Range; grounded: true }
  | { value: null; grounded: false; reason: "not_found" };

/** The outcome of checking extracted fields. */
export interface FieldsResult {
  fields: Record<string, FieldResult>;
  coverage: number;
}
