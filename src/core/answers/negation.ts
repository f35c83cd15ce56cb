// A clause that states what its support denies: the source says "Never wash a shelf with water" and the answer
// "Wash the shelf with water after every firing". The support holds every word, so only the negation tells
// them apart (docs/matching.md#answers).
import type { StepCounter } from "../step-counter.js";
import { forEachWord } from "../text/index.js";
import type { Range } from "../types.js";

// Words that deny what follows them (folded; `n't` endings too).
const NEGATORS: ReadonlySet<string> = new Set(["not", "never", "cannot"]);
// Words after `not` that make it no denial ("not only", "not just", "not until").
const NOT_DENYING: ReadonlySet<string> = new Set(["only", "just", "merely", "simply", "until", "till"]);
// Words of a clause that make it a negative statement itself: such a clause is not compared.
const NEGATIVE_WORDS: ReadonlySet<string> = new Set([
  ...NEGATORS,
  "no",
  "none",
  "nor",
  "neither",
  "nothing",
  "nobody",
  "nowhere",
  "without",
  "hardly",
  "rarely",
  "seldom",
  "forbidden",
  "forbid",
  "forbids",
  "prohibited",
  "prohibit",
  "prohibits",
  "banned",
  "barred",
  "unable",
  "refused",
  "refuses",
  "failed",
  "fails",
  "lacks",
  "lacked",
  "avoid",
  "avoids",
  "avoided",
  "instead",
]);
// Words that may stand between a negator and the verb it denies.
const AUXILIARIES: ReadonlySet<string> = new Set([
  "be",
  "been",
  "being",
  "have",
  "has",
  "had",
  "ever",
  "yet",
]);
/** Words between a negator and the word it denies, at most (`must never be washed`). */
const NEGATION_REACH = 2;

const isNegator = (word: string): boolean => NEGATORS.has(word) || word.endsWith("n't");

/** True when a clause holds a negative word (`not`, `never`, `no`, `without`, `don't`, …). O(clause). */
export function statesNegation(text: string): boolean {
  let negative = false;
  forEachWord(text, (word) => {
    if (!negative && (NEGATIVE_WORDS.has(word) || word.endsWith("n't"))) negative = true;
  });
  return negative;
}

/**
 * The terms (by `termOf`, -1 for none) that `range` of `text` writes only as the word a negator denies (the
 * content word right after it, or after at most NEGATION_REACH auxiliaries: `never wash`, `do not wash`, `must
 * never be washed`), never plainly. O(range).
 */
export function deniedTerms(
  text: string,
  [start, end]: Range,
  termOf: (word: string) => number,
  counter?: StepCounter,
): Set<number> {
  if (counter !== undefined) counter.steps += end - start;
  const denied = new Set<number>();
  const stated = new Set<number>();
  // Words read since the last negator whose denial is still to land; -1 when none is pending.
  let pending = -1;
  let afterNot = false;
  forEachWord(text.slice(start, end), (word) => {
    const cancels = afterNot && NOT_DENYING.has(word);
    afterNot = false;
    if (cancels) pending = -1;
    if (isNegator(word)) {
      pending = 0;
      afterNot = word === "not";
      return;
    }
    const term = termOf(word);
    if (pending >= 0 && term >= 0) {
      denied.add(term);
      pending = -1;
      return;
    }
    if (term >= 0) stated.add(term);
    // Only auxiliaries stand between a negator and the verb it denies (`never be washed`, `not been
    // approved`); after any other word (`not the phagosomal membrane`) it denies a noun phrase, not the claim.
    pending = pending >= 0 && pending < NEGATION_REACH && AUXILIARIES.has(word) ? pending + 1 : -1;
  });
  for (const term of stated) denied.delete(term);
  return denied;
}
