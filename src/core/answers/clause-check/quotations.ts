import { trimTrailing } from "../../../util.js";
import type { PreparedSource } from "../../prepared-source.js";
import { expectQuotes, findQuote } from "../../quotes/index.js";
import type { StepCounter } from "../../step-counter.js";
import type { MatchMode } from "../../types.js";
import { type AnswerClaim, type Clause, tidy } from "../answer-claims.js";
import { expectSpacedQuotation, foundUpToSpacing } from "../quotation-spacing.js";
import { originalSpan, type ReadableSource } from "../scraped-text.js";
import type { SupportIndex } from "../support.js";
import type { AnswerMiss, ClauseQuotation } from "./types.js";

// A clause's quotations (`quote_not_found`): where they stand, elided ones, and why one was not found.

// Explicit quotations of a clause: text in straight or curly double quotes, or the whole claim on a `>` line.
const STRAIGHT_QUOTED = /"([^"\n]{1,2000})"/g;
const CURLY_QUOTED = /“([^”\n]{1,2000})”/g;
const WORDY = /[\p{L}\p{N}]/u;
const TRAILING_PUNCTUATION = ",.;:!?";

export function quotationsOf(clause: Clause, claim: AnswerClaim): string[] {
  if (claim.blockQuote) return clause === claim.clauses[0] ? [claim.text] : [];
  const quotations: string[] = [];
  const { masked } = clause;
  // Each pattern runs only on a clause that holds its opening quote, by `exec` from the start (no copy of
  // the pattern and no iterator per clause, as `matchAll` makes).
  for (const [pattern, opening] of QUOTED) {
    if (!masked.includes(opening)) continue;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(masked); match !== null; match = pattern.exec(masked)) {
      // A comma or full stop inside the closing quote belongs to the sentence (`"Harbour Lights," which`).
      const quotation = trimTrailing(tidy(match[1] as string), TRAILING_PUNCTUATION);
      if (WORDY.test(quotation)) quotations.push(quotation);
    }
    pattern.lastIndex = 0;
  }
  return quotations;
}

const QUOTED: readonly (readonly [RegExp, string])[] = [
  [STRAIGHT_QUOTED, '"'],
  [CURLY_QUOTED, "“"],
];

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
export function foundInOrder(source: PreparedSource, pieces: readonly string[], mode: MatchMode): boolean {
  let end = -1;
  for (const piece of pieces) {
    const range = findQuote(source, piece, mode);
    if (range === null) return false;
    if (end >= 0 && (range[0] < end || range[0] - end > MAX_ELIDED_CHARS)) return false;
    end = range[1];
  }
  return true;
}

/**
 * Tells `source` of a quotation before any is searched, so that many against one source are found in one pass
 * (`findQuote`): its pieces, and in strict mode its lenient form (`expectSpacedQuotation`). O(m).
 */
export function announceQuotation(
  source: PreparedSource,
  { quotation, pieces }: ClauseQuotation,
  mode: MatchMode,
) {
  expectQuotes(source, pieces, mode);
  expectSpacedQuotation(source, quotation, mode);
}

/**
 * Whether `source` holds a quotation under `mode`: an elided one piece by piece in order (`foundInOrder`), another
 * as written or, in strict mode, up to spacing next to punctuation (`foundUpToSpacing`).
 */
export function holdsQuotation(
  source: PreparedSource,
  { quotation, pieces }: ClauseQuotation,
  mode: MatchMode,
  counter?: StepCounter,
): boolean {
  if (pieces.length > 1) return foundInOrder(source, pieces, mode);
  return (
    findQuote(source, quotation, mode) !== null ||
    (mode === "strict" && foundUpToSpacing(source, quotation, counter))
  );
}

/**
 * Why a quotation was not found: the quotation, and in strict mode, when one of the sources holds it with only
 * its case different (its first letter, or other letters), which and as the source writes it. O(n + m) per
 * source, within the request's lenient searches announced before (`findQuote`).
 */
export function quotationMiss(
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
