import type { StepCounter } from "../../step-counter.js";
import { forEachWord, wordSteps } from "../../text/index.js";
import type { Range } from "../../types.js";
import { otherWrittenForms } from "../abbreviations.js";
import type { AnswerClaim } from "../answer-claims.js";
import {
  forEachEquivalenceKey,
  forEachEquivalenceKeyInPieces,
  initialsKeyOfWord,
  keysOfWord,
} from "../equivalences.js";
import { withoutFraming } from "../framing.js";
import { contentTerm, type SupportIndex } from "../support.js";
import type { CheckContext, ClauseTerms } from "./types.js";

// The names of a clause (`entity_not_found`): which words are names, and whether the sources hold each, as
// written, in an equivalent form, or as an acronym the answer defines.

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
export function missingEntity(
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
export const entitiesHeldBy = (
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
// acronyms, only these can count. A word in capitals (`CAPITALS` in equivalences.ts: two to five capitals, each
// maybe followed by a dot) holds a capital followed by another or by a dot, so a clause with no such pair is
// not read by words (most prose, and all Japanese or Chinese). A clause that is read counts its words' cost
// (`wordSteps`). O(claim).
export function addWantedInitials(wanted: Set<string>, claim: AnswerClaim, counter: StepCounter): void {
  for (const clause of claim.clauses) {
    // Blanking framing out makes no word in capitals: a clause that holds none is read once, as it is.
    counter.steps += clause.masked.length;
    if (!mayHoldCapital(clause.masked) || !CAPITAL_PAIR.test(clause.masked)) continue;
    const text = withoutFraming(clause.masked);
    counter.steps += wordSteps(text);
    forEachWord(text, (word, start, end) => {
      const key = initialsKeyOfWord(text.slice(start, end), word);
      if (key !== null) wanted.add(key);
    });
  }
}

// Whether `text` may hold a capital: a character that is not ASCII other than A–Z, nor of a script without case
// (Thai U+0E00–U+0E7F, CJK symbols, kana and ideographs U+3000–U+9FFF, Hangul syllables), nor a half- or
// full-width form other than the full-width capitals Ａ–Ｚ (U+FF00–U+FFEF: Chinese prose writes its commas
// `，` there): one comparison a character, so most text of those scripts never meets the pattern. O(text).
function mayHoldCapital(text: string): boolean {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) {
      if (code >= 65 && code <= 90) return true;
    } else if (
      !(
        (code >= 0x3000 && code <= 0x9fff) ||
        (code >= 0x0e00 && code <= 0x0e7f) ||
        (code >= 0xac00 && code <= 0xd7a3) ||
        (code >= 0xff00 && code <= 0xffef && !(code >= 0xff21 && code <= 0xff3a))
      )
    )
      return true;
  }
  return false;
}

// A capital followed by another or by a dot: where a word in capitals starts. Two characters, no repetition: one
// pass over the text.
const CAPITAL_PAIR = /\p{Lu}[\p{Lu}.]/u;

// The acronyms an answer defines by a capitalised run whose every word a source holds (`National Air and
// Space Museum (NASM)` with the full name in a source), as `=initials:` keys: the acronym then counts as the
// name. Only the `wanted` keys are kept (`wantedInitials`), and with none wanted the answer is not read. Read
// in pieces of about `pieceChars` characters (`forEachEquivalenceKeyInPieces`), pausing after each. O(answer).
export function* answerInitials(
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
export function isEntityAt(text: string, start: number, end: number, sentenceStart: boolean): boolean {
  const first = text.charCodeAt(start);
  if (first < 97 || first > 122) {
    return !isCaselessLetters(text, start, end) && isEntity(text.slice(start, end), sentenceStart);
  }
  for (let at = start + 1; at < end; at++) {
    const code = text.charCodeAt(at);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) continue;
    if (code >= 128) return isEntity(text.slice(start, end), sentenceStart);
    return code >= 48 && code <= 57;
  }
  return false;
}

// Whether `text.slice(start, end)` is all letters and marks of scripts without case, so neither a capital nor a
// digit (a code): kana (U+3040–U+30FF), CJK Unified Ideographs (U+4E00–U+9FFF) and Thai letters and marks
// (U+0E01–U+0E4F). The words of Chinese, Japanese and Thai prose, one a character: no slice, no pattern.
export function isCaselessLetters(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (
      !(
        (code >= 0x4e00 && code <= 0x9fff) ||
        (code >= 0x3040 && code <= 0x30ff) ||
        (code >= 0x0e01 && code <= 0x0e4f)
      )
    )
      return false;
  }
  return true;
}

function isEntity(written: string, sentenceStart: boolean): boolean {
  return (
    CODE.test(written) ||
    (written.length >= MIN_ENTITY_LETTERS &&
      (ALL_CAPITALS.test(written) || (!sentenceStart && CAPITALISED.test(written))))
  );
}
