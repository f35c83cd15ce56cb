/** How a quote is compared with a source: `strict` is boundary-exact, `lenient` compares word tokens. */
export type MatchMode = "strict" | "lenient";

/** The `check_numbers` option: off, anywhere in the cited source, or bound to the table row/column. */
export type CheckNumbers = boolean | "source" | "row";

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
}

/** Options for checking claims. */
export interface ClaimCheckOptions {
  mode?: MatchMode | undefined;
  checkNumbers?: CheckNumbers | undefined;
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
