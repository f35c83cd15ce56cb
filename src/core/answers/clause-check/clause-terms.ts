import { nextNumberStart, numberEnd, numberKey, smallWholeNumber } from "../../numbers/index.js";
import type { StepCounter } from "../../step-counter.js";
import {
  codePointAt,
  forEachWord,
  hasDecimalDigit,
  hasUnspacedScript,
  UNSPACED_STEPS_PER_CHAR,
} from "../../text/index.js";
import type { Range } from "../../types.js";
import type { Clause } from "../answer-claims.js";
import { forEachDate, NAMED_DATE_REACH } from "../equivalences.js";
import { withoutFraming } from "../framing.js";
import { codeBefore, contentTerm, dateTerm, forEachNumberKey, type Lexicon, numberTerm } from "../support.js";
import { isEntityAt } from "./entities.js";
import type { ClauseTerms, QuestionTerms } from "./types.js";

// How a clause is read for its support search: its content terms, dates and numbers, and the question's.

/**
 * The words, content terms, numbers and dates of the user's messages, read in pieces of about `pieceChars`
 * steps (a step a character, UNSPACED_STEPS_PER_CHAR in a message of an unspaced script) and pausing after
 * each piece's worth, so 4 MiB of question text never holds the event loop
 * in one pass. A message is cut only where no word, number or date runs across (`questionCut`), and each
 * piece is read as the whole message reads it (the same mode of words, dates from as far back as a date's
 * words reach), so the terms are those of reading each message whole. A stretch with no such place (one
 * word of a megabyte) is one piece. O(messages).
 */
export function* readQuestionTerms(
  messages: readonly string[],
  pieceChars: number,
  counter?: StepCounter,
): Generator<void, QuestionTerms> {
  const read: QuestionTerms = { words: new Set(), terms: new Set(), numbers: new Set(), dates: new Set() };
  let sincePause = 0;
  for (const message of messages) {
    const unspaced = hasUnspacedScript(message);
    const stepsPerChar = unspaced ? UNSPACED_STEPS_PER_CHAR : 1;
    for (let from = 0; from < message.length; ) {
      const to = questionCut(
        message,
        from + Math.max(1, Math.floor((pieceChars - sincePause) / stepsPerChar)),
      );
      readQuestionPiece(message, from, to, unspaced, read);
      if (counter !== undefined) counter.steps += stepsPerChar * (to - from);
      sincePause += stepsPerChar * (to - from);
      from = to;
      if (sincePause >= pieceChars) {
        sincePause = 0;
        yield;
      }
    }
  }
  return read;
}

// Adds the terms of `message.slice(from, to)` to `read`, where `from` is a cut (`questionCut`).
function readQuestionPiece(
  message: string,
  from: number,
  to: number,
  unspaced: boolean,
  read: QuestionTerms,
): void {
  const piece = message.slice(from, to);
  forEachNumberKey(piece, (key) => read.numbers.add(key));
  // A date's month and day stand up to NAMED_DATE_REACH characters before its year, and the cut may fall
  // between them: dates are read from that far back, keeping those whose year is in this piece.
  const back = Math.max(0, from - NAMED_DATE_REACH);
  forEachDate(back === from ? piece : message.slice(back, to), ({ date, end }) => {
    if (back + end > from) read.dates.add(date);
  });
  forEachWord(
    piece,
    (word) => {
      read.words.add(word);
      const term = contentTerm(word);
      if (term !== null) read.terms.add(term);
    },
    unspaced,
  );
}

/**
 * The first place at or after `at` where question text may be cut (or its end): after a space, a line break,
 * `、` or `。`, before a letter or numeral. No word, number or numeric date holds one of these; the
 * segmenter of unspaced scripts breaks there whatever comes before (UAX #29: no rule joins across them when
 * a letter or numeral follows); a named date may (`March 4, 2019`), which `readQuestionPiece` reads back for.
 * O(distance to the cut).
 */
function questionCut(text: string, at: number): number {
  for (let cut = Math.max(1, at); cut < text.length; cut++) {
    const before = text.charCodeAt(cut - 1);
    if (before !== 32 && before !== 10 && before !== 0x3001 && before !== 0x3002) continue;
    const code = text.charCodeAt(cut);
    if (code < 128) {
      if ((code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122)) return cut;
    } else if (LETTER_OR_NUMERAL.test(String.fromCodePoint(codePointAt(text, cut) as number))) return cut;
  }
  return text.length;
}

const LETTER_OR_NUMERAL = /^[\p{L}\p{N}]/u;

// The terms of a clause: each distinct content term once (by id), and whether it counts (is not the
// question's).
export function clauseTerms(
  clause: Clause,
  question: QuestionTerms,
  lexicon: Lexicon,
  startsClaim: boolean,
): ClauseTerms {
  // Each term is marked as it is met: a repeat is a term already marked (no set made a clause).
  const seen = lexicon.newMark();
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
  forEachWord(
    text,
    (word, start, end) => {
      const id = lexicon.entry(word).term;
      const sentenceStart = first && startsClaim;
      first = false;
      if (id < 0) return;
      const entity = isEntityAt(text, start, end, sentenceStart);
      if (!entity && !lexicon.isUnmarked(id, seen)) return;
      const term = lexicon.terms[id] as string;
      // A word that folds to itself (every word of Han and Kana) is its written form: no second copy of it.
      const writtenWord =
        end - start === word.length && text.startsWith(word, start) ? word : text.slice(start, end);
      if (entity) read.entities.push({ word, term, written: writtenWord, start, end });
      if (!lexicon.markTerm(id, seen)) return;
      pushTerm(read, id, !question.terms.has(term), writtenWord, start);
    },
    undefined,
    lexicon.pairs,
  );
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
  const seen = lexicon.newMark();
  const spans: Range[] = [];
  forEachDate(text, ({ date, start, end }) => {
    // Only a date some source holds stands for its words: another is read word by word, as before.
    const id = lexicon.idOf(dateTerm(date));
    if (id < 0 || lexicon.termInSources[id] !== true) return;
    spans.push([start, end]);
    if (!lexicon.markTerm(id, seen)) return;
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
// A whole number below 2^30 is looked up by its value (`smallNumberId`), with no key string: its key is read
// only the first time the clause names it.
function readNumberTerms(read: ClauseTerms, text: string, question: QuestionTerms, lexicon: Lexicon): void {
  const seen = lexicon.newMark();
  for (let start = nextNumberStart(text, 0); start >= 0; ) {
    const end = numberEnd(text, start);
    // A code (`I-84`) is looked up as written, so `US-84` is not found where a source writes `I-84`.
    const code = codeBefore(text, start);
    const small = code === null ? smallWholeNumber(text, start, end) : -1;
    const id =
      small >= 0
        ? lexicon.smallNumberId(small)
        : code === null
          ? lexicon.numberId(numberKey(text, start, end))
          : lexicon.id(numberTerm(numberKey(text, start, end), code));
    if (lexicon.markTerm(id, seen)) {
      const from = code === null ? start : start - code.length - 1;
      const counted = !question.numbers.has(numberKey(text, start, end));
      pushTerm(read, id, counted, text.slice(from, end), from);
    }
    start = nextNumberStart(text, end);
  }
  read.numbersOnly = read.terms.length > 0;
}

// The numbers of a clause of words join its terms without counting towards support: among spans that hold the
// same words, the one that also holds the claim's numbers wins (a claim about 2021 cites the 2021 sentence), and
// support pooled from further sentences may bring them in (`SupportIndex.bestSpans`).
function addNumberTerms(read: ClauseTerms, text: string, lexicon: Lexicon): void {
  const seen = lexicon.newMark();
  forEachNumberKey(text, (key, start, end) => {
    const id = lexicon.numberId(key);
    if (!lexicon.markTerm(id, seen)) return;
    pushTerm(read, id, false, text.slice(start, end), start);
  });
}

/** Whether a text holds a decimal digit of any script: `/\p{Nd}/u`'s test, by a table a character (`hasDecimalDigit`). */
export const HAS_DIGIT: { test(text: string): boolean } = { test: hasDecimalDigit };
