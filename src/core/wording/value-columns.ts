import { listOfLength } from "../lists.js";
import { NumberSpans } from "../numbers/index.js";
import type { StepCounter } from "../step-counter.js";
import { isWhitespaceChar } from "../text/index.js";
import { allOf, codeClass, isLetterCode, onlyNumberSigns } from "./characters.js";
import type { Mentions } from "./mention.js";
import { ruleOn } from "./rule-switch.js";
import { statedByCopula, subjectMention } from "./subject-column.js";
import {
  ABOVE,
  BELOW,
  CIRCUMSTANCE,
  COMPARATIVES,
  COUNT_WORDS,
  LESS,
  LINKS,
  MONTHS,
  MORE,
  ORDINAL_SUFFIXES,
} from "./word-lists.js";

/** A number of the claim: where its digits are in the folded claim. */
export interface NumberSpan {
  start: number;
  end: number;
}

// Characters that join numbers into one unit: scores `12 - 0`, times `5:06.72`, ratios `2:1`, twins
// `18.17 ( 125 )`, sums `70 + 71 = 141`, set scores `6 - 2 , 6 - 0`, dates `12/04/1969`.
const isUnitJoiner = codeClass(" -:/()+=,\u2013\u2014\u2212");
// What stands inside a date of three numbers (`12/04/1969`): digits, spaces, `/` and `-`.
const isDateJoiner = codeClass("0123456789 /-");
const isSpace = codeClass(" ");

/** Per number, the index of the first number of its unit (numbers joined only by unit joiners). */
export function numberUnits(folded: string, numbers: readonly NumberSpan[]): number[] {
  return Array.from(unitsOf(folded, NumberSpans.of(folded, numbers)));
}

// `numberUnits` as a typed array: the per-number tables of a claim of many numbers are a few blocks
// outside the heap rather than arrays the collector copies.
function unitsOf(folded: string, numbers: NumberSpans): Int32Array {
  const unitOf = new Int32Array(numbers.length);
  for (let index = 1; index < numbers.length; index += 1) {
    const start = numbers.start(index);
    const previousEnd = numbers.end(index - 1);
    const joined = ruleOn("R6") && allOf(folded, previousEnd, start, isUnitJoiner);
    unitOf[index] = joined ? (unitOf[index - 1] as number) : index;
  }
  return unitOf;
}

// True when `text[from, to)` is one dash (`-` or `–`) with at most a space on each side.
function isDash(text: string, from: number, to: number): boolean {
  let at = from;
  if (text.charCodeAt(at) === 32) at += 1;
  const code = text.charCodeAt(at);
  if (code !== 45 && code !== 0x2013) return false;
  at += 1;
  if (text.charCodeAt(at) === 32) at += 1;
  return at === to;
}

// True when `text[from, to)`, at most `maxChars` long, is at most one linking word among characters that
// `isSeparator` accepts. Constant time: only short spans are read, and only the one word is sliced.
function oneLinkAtMost(
  text: string,
  from: number,
  to: number,
  maxChars: number,
  isSeparator: (code: number) => boolean,
): boolean {
  if (to - from > maxChars) return false;
  let wordStart = -1;
  let wordEnd = -1;
  for (let index = from; index <= to; index += 1) {
    const code = index < to ? text.charCodeAt(index) : 32;
    if (!isSeparator(code)) {
      if (wordStart < 0) wordStart = index;
      else if (wordEnd >= 0) return false;
      continue;
    }
    if (wordStart >= 0 && wordEnd < 0) wordEnd = index;
  }
  return wordStart < 0 || LINKS.has(text.slice(wordStart, wordEnd));
}

const isListSeparator = (code: number): boolean => code === 58 || code === 44 || isWhitespaceChar(code);

/**
 * True when `text[from, to)` is at most one linking word, spaces and `:` or `,`: `week 5`, `date was
 * 1 march 1933`, `points : 12`. At most 8 characters are read.
 */
const besideText = (text: string, from: number, to: number): boolean =>
  oneLinkAtMost(text, from, to, 8, isListSeparator);

// Where the word that ends at or before `end` starts (spaces and `,` skipped).
function wordStartBefore(text: string, end: number): number {
  let to = end;
  while (to > 0 && (text.charCodeAt(to - 1) === 32 || text.charCodeAt(to - 1) === 44)) to -= 1;
  let from = to;
  while (from > 0 && isLetterCode(text.charCodeAt(from - 1))) from -= 1;
  return from;
}

// Where the run of letters starting at `from` ends.
function lettersEnd(text: string, from: number): number {
  let to = from;
  while (to < text.length && isLetterCode(text.charCodeAt(to))) to += 1;
  return to;
}

// True when the word starting at `from` is a month name. Read per number: a word too short or too long
// for one is ruled out before it is sliced.
function isMonthAt(text: string, from: number): boolean {
  const length = lettersEnd(text, from) - from;
  return length >= 3 && length <= 9 && MONTHS.has(text.slice(from, from + length));
}

/**
 * True when the word before `dateStart` sets what follows as the claim's circumstance: one of
 * `CIRCUMSTANCE`, or none when a number opens the claim.
 */
export function isCircumstance(text: string, dateStart: number): boolean {
  let before = dateStart;
  while (before > 0 && text.charCodeAt(before - 1) === 32) before -= 1;
  if (text.charCodeAt(before - 1) === 58) return false;
  const wordStart = wordStartBefore(text, dateStart);
  return CIRCUMSTANCE.has(text.slice(wordStart, lettersEnd(text, wordStart)));
}

// True when an ASCII regex word character (`\w`) is at `index`.
function isAsciiWordChar(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

// True when `st`, `nd`, `rd` or `th` starts at `from` and ends a word (`17th`, `1st of`), read in place.
function isOrdinalSuffix(text: string, from: number): boolean {
  if (from + 2 > text.length) return false;
  const first = text.charCodeAt(from);
  if (first !== 115 && first !== 110 && first !== 114 && first !== 116) return false;
  return ORDINAL_SUFFIXES.has(text.slice(from, from + 2)) && !isAsciiWordChar(text, from + 2);
}

// Where the word read by `wordAfter` starts.
function wordAfterStart(text: string, start: number): number {
  let from = start;
  if (isOrdinalSuffix(text, from)) from += 2;
  for (let skips = 0; skips < 2; skips += 1) {
    while (from < text.length && text.charCodeAt(from) === 32) from += 1;
    // `of ` (read by code: this runs for every number).
    if (
      text.charCodeAt(from) === 111 &&
      text.charCodeAt(from + 1) === 102 &&
      text.charCodeAt(from + 2) === 32
    )
      from += 3;
  }
  return from;
}

/** True when the number at `[start, end)` stands next to a month name: a day (`december 15`, `the 9th of may`). */
export function isDayOfMonth(folded: string, start: number, end: number): boolean {
  return isMonthAt(folded, wordStartBefore(folded, start)) || isMonthAt(folded, wordAfterStart(folded, end));
}

/**
 * Per number, true when it belongs to a date set as the claim's circumstance: next to a month name (`on
 * may 3 , 2021`, `the 17th of october`, `may 18,2011`) or in a unit of three numbers joined by `/` or
 * `-` holding a four-digit year (`on 12/04/1969`), and not stated as a value (after `was`, `is`, `were`,
 * `are` or `:`). Such a date identifies the row; it is not a value of a named column.
 */
export function dateNumbers(
  folded: string,
  numbers: readonly NumberSpan[],
  unitOf: readonly number[],
): boolean[] {
  return Array.from(
    datesOf(folded, NumberSpans.of(folded, numbers), unitOf).circumstantial,
    (flag) => flag === 1,
  );
}

/**
 * Per number (1 for true): whether it is in a date set as the claim's circumstance, whether in any date
 * at all, and where the month name right before and right after it starts (-1: none).
 */
interface Dates {
  circumstantial: Uint8Array;
  /** Every date, stated or circumstantial (`premiere was 17 june 2007` too). */
  any: Uint8Array;
  monthBefore: Int32Array;
  monthAfter: Int32Array;
}

// Both readings of `dateNumbers` in one pass: the month names beside each number are read once.
function datesOf(folded: string, numbers: NumberSpans, unitOf: ArrayLike<number>): Dates {
  const inDate = new Uint8Array(numbers.length);
  const anyDate = new Uint8Array(numbers.length);
  const monthBefore = new Int32Array(numbers.length).fill(-1);
  const monthAfter = new Int32Array(numbers.length).fill(-1);
  for (let index = 0; index < numbers.length; index += 1) {
    const start = numbers.start(index);
    const monthStart = wordStartBefore(folded, start);
    const afterStart = wordAfterStart(folded, numbers.end(index));
    if (isMonthAt(folded, afterStart)) monthAfter[index] = afterStart;
    if (isMonthAt(folded, monthStart)) {
      monthBefore[index] = monthStart;
      const previousEnd = index > 0 ? numbers.end(index - 1) : -1;
      // `17 june 2007`: the year belongs to the date that starts at 17.
      const sameDate =
        index > 0 &&
        monthStart - previousEnd <= 6 &&
        folded.slice(previousEnd, monthStart).replace(/st|nd|rd|th|of|[ ,]/g, "") === "";
      inDate[index] = sameDate ? (inDate[index - 1] as number) : isCircumstance(folded, monthStart) ? 1 : 0;
      anyDate[index] = sameDate ? (anyDate[index - 1] as number) : 1;
      continue;
    }
    if (monthAfter[index] !== -1) {
      inDate[index] = isCircumstance(folded, start) ? 1 : 0;
      anyDate[index] = 1;
    }
  }
  extendDates(folded, numbers, unitOf, inDate, true);
  extendDates(folded, numbers, unitOf, anyDate, false);
  return { circumstantial: inDate, any: anyDate, monthBefore, monthAfter };
}

// Adds to the dates of `inDate` the numbers that belong to them, and the units of three numbers holding a
// year (`12/04/1969`): only those set as the circumstance when `circumstantial`, else every one.
function extendDates(
  folded: string,
  numbers: NumberSpans,
  unitOf: ArrayLike<number>,
  inDate: Uint8Array,
  circumstantial: boolean,
): void {
  for (let index = 1; index < numbers.length; index += 1) {
    // The year after `october 17 ,` belongs to the date, and so does the end of a range of days (`may
    // 2 - 7 , 2007`).
    if (inDate[index] || !inDate[index - 1] || unitOf[index] !== unitOf[index - 1]) continue;
    const start = numbers.start(index);
    const previousEnd = numbers.end(index - 1);
    const length = numbers.end(index) - start;
    if ((length <= 2 && isDash(folded, previousEnd, start)) || (length === 4 && previousEnd < start))
      inDate[index] = 1;
  }
  for (let first = 0; first < numbers.length; ) {
    let last = first;
    while (last + 1 < numbers.length && unitOf[last + 1] === first) last += 1;
    if (last - first === 2) {
      const hasYear =
        numbers.end(first) - numbers.start(first) === 4 ||
        numbers.end(first + 1) - numbers.start(first + 1) === 4 ||
        numbers.end(last) - numbers.start(last) === 4;
      if (
        hasYear &&
        (!circumstantial || isCircumstance(folded, numbers.start(first))) &&
        allOf(folded, numbers.end(first), numbers.start(last), isDateJoiner)
      ) {
        inDate.fill(1, first, last + 1);
      }
    }
    first = last + 1;
  }
}

/**
 * True when the number ending at `end` states a difference or a count (`2 more medals than`, `3 times`):
 * it is no value of the column it stands beside. Reads one word.
 */
function statesDifferenceOrCount(folded: string, end: number): boolean {
  let from = end;
  while (from < folded.length && folded.charCodeAt(from) === 32) from += 1;
  if (from === end) return false;
  // The longest of those words has 7 letters: read at most 8, so each number costs a constant.
  let to = from;
  while (to < folded.length && to - from < 8 && isLetterCode(folded.charCodeAt(to))) to += 1;
  // The shortest has 4: a shorter word is ruled out before it is sliced.
  return to - from >= 4 && to - from < 8 && COUNT_WORDS.has(folded.slice(from, to)) && ruleOn("R11");
}

/**
 * True when the number ending at `end` states the difference of two rows (R46): a comparative among the
 * next four words and `than` within three words after it (`4 seconds faster than`, `9 strokes more under
 * par than`). Reads at most seven words of at most 12 characters.
 */
export function statesDifferenceOfRows(folded: string, end: number): boolean {
  let comparative = -1;
  let at = end;
  for (let word = 0; word < 7; word += 1) {
    while (at < folded.length && folded.charCodeAt(at) === 32) at += 1;
    let to = at;
    while (to < folded.length && to - at <= 12 && folded.charCodeAt(to) !== 32) to += 1;
    if (to === at || to - at > 12) return false;
    const text = folded.slice(at, to);
    if (comparative < 0 && word < 4 && COMPARATIVES.has(text)) comparative = word;
    else if (comparative >= 0 && text === "than") return true;
    else if (comparative >= 0 && word - comparative >= 3) return false;
    at = to;
  }
  return false;
}

// True when the mention at `mention` starts right after `end`, past one or more spaces.
function startsRightAfter(folded: string, mentions: Mentions, mention: number, end: number): boolean {
  const start = mention < mentions.length ? mentions.start(mention) : end;
  return start > end && allOf(folded, end, start, isSpace);
}

/**
 * True when the mention at `mention` names only the column of row labels and is written in the plural
 * (`games`, `weeks`): right after a number (`in 11 games`), the number counts rows and is no cell's value.
 */
function namesRowLabelsInPlural(folded: string, mentions: Mentions, mention: number): boolean {
  const columns = mentions.columns(mention);
  return columns.length === 1 && columns[0] === 0 && folded.charCodeAt(mentions.end(mention) - 1) === 115;
}

/**
 * How a bound compares a cell with its number: `more than 8` is `>` (the cell is more than 8), `other than
 * 0` is `!=`.
 */
export type Bound = "<" | ">" | "<=" | ">=" | "!=";

// The word that ends right before `end` (after spaces), if it has at most 9 letters; else "".
function shortWordBefore(text: string, end: number): { word: string; start: number } {
  let to = end;
  while (to > 0 && text.charCodeAt(to - 1) === 32) to -= 1;
  let from = to;
  while (from > 0 && to - from <= 9 && isLetterCode(text.charCodeAt(from - 1))) from -= 1;
  if (to - from > 9) return { word: "", start: from };
  return { word: text.slice(from, to), start: from };
}

/**
 * The comparison a number states as a bound, or null: `more than 8`, `over 8`, `above 8` (the cell is
 * greater), `less than 8`, `fewer than 8`, `under 8`, `below 8` (smaller), `at least 8`, `at most 8`.
 * Reads at most two short words before the number.
 */
export function boundOf(folded: string, start: number): Bound | null {
  const last = shortWordBefore(folded, start);
  if (ABOVE.has(last.word)) return ">";
  if (BELOW.has(last.word)) return "<";
  if (last.word !== "than" && last.word !== "least" && last.word !== "most") return null;
  const previous = shortWordBefore(folded, last.start).word;
  if (last.word === "than")
    return MORE.has(previous) ? ">" : LESS.has(previous) ? "<" : previous === "other" ? "!=" : null;
  if (previous !== "at") return null;
  return last.word === "least" ? ">=" : "<=";
}

/**
 * Units for column pairing: `unitOf` with a day joined to the year after its month (`11 june 1930`, `the
 * 9th of may 2001`), so a stated date takes one column as a whole. Reads a few words per number.
 */
function joinDays(folded: string, values: NumberSpans, unitOf: Int32Array, inDate: Uint8Array): Int32Array {
  const joined = new Int32Array(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const valueStart = values.start(index);
    const first = unitOf[index] as number;
    if (index > 0 && inDate[index] && inDate[index - 1] && first === index) {
      let at = values.end(index - 1);
      if (isOrdinalSuffix(folded, at)) at += 2;
      while (at < valueStart && (folded.charCodeAt(at) === 32 || folded.charCodeAt(at) === 44)) at += 1;
      if (folded.startsWith("of ", at)) at += 3;
      let monthEnd = at;
      while (monthEnd < valueStart && isLetterCode(folded.charCodeAt(monthEnd))) monthEnd += 1;
      let rest = monthEnd;
      while (rest < valueStart && (folded.charCodeAt(rest) === 32 || folded.charCodeAt(rest) === 44))
        rest += 1;
      if (rest === valueStart && MONTHS.has(folded.slice(at, monthEnd))) {
        joined[index] = joined[index - 1] as number;
        continue;
      }
    }
    joined[index] = first === index ? index : (joined[first] as number);
  }
  return joined;
}

/**
 * The subject column states the value after the claim's main copula (`the batch code of the kiln fired
 * in 1987 is 5512`: 5512 is the batch code, and 1987 is not): the first unit after the subject that a
 * copula states takes the subject's columns, and the units between them that were paired with the subject
 * by nearness lose it. Units in a circumstantial date are passed over. One sweep over the values.
 */
function bindSubject(
  folded: string,
  values: NumberSpans,
  columnUnitOf: Int32Array,
  inDate: Uint8Array,
  columnMentions: Mentions,
  result: (readonly number[])[],
  chosenOf: Int32Array,
): void {
  const subject = ruleOn("R16") ? subjectMention(folded, columnMentions) : -1;
  if (subject < 0) return;
  const headEnd = columnMentions.end(subject);
  const headColumns = columnMentions.columns(subject);
  // Per mention, the first unit paired with it: a mention that another unit took (`44 pf was 9`: pf is
  // 44's) no longer claims the copula after it, and one this very unit took (`place is 16`) does.
  const takenBy = new Map<number, number>();
  chosenOf.forEach((mention, index) => {
    if (mention >= 0 && !takenBy.has(mention)) takenBy.set(mention, columnUnitOf[index] as number);
  });
  const mentionAt = new Map<number, number>();
  const mentionStarts = new Set<number>();
  for (let index = 0; index < columnMentions.length; index += 1) {
    mentionAt.set(columnMentions.end(index), index);
    mentionStarts.add(columnMentions.start(index));
  }
  let target = -1;
  for (let index = 0; index < values.length; index += 1) {
    const valueStart = values.start(index);
    if (valueStart < headEnd || columnUnitOf[index] !== index || inDate[index]) continue;
    let last = index;
    while (last + 1 < values.length && columnUnitOf[last + 1] === index) last += 1;
    const end = values.end(last);
    const claimsCopula = (mentionEnd: number): boolean => {
      const mention = mentionAt.get(mentionEnd);
      if (mention === undefined) return false;
      const unit = takenBy.get(mention);
      return unit === undefined || unit === index;
    };
    if (statedByCopula(folded, valueStart, end, claimsCopula, mentionStarts)) {
      target = index;
      break;
    }
  }
  if (target < 0) return;
  for (let index = 0; index < target; index += 1) {
    if (chosenOf[index] === subject) {
      result[index] = NO_COLUMNS;
      chosenOf[index] = -1;
    }
  }
  for (let index = target; index < values.length && columnUnitOf[index] === target; index += 1) {
    if (statesDifferenceOrCount(folded, values.end(index))) continue;
    result[index] = headColumns;
    chosenOf[index] = subject;
  }
}

const NO_COLUMNS: readonly number[] = [];

// A year: four digits from 1000 to 2999 (`1930`, `2007`); a number with decimals is longer.
function isYear(text: string, start: number, end: number): boolean {
  if (end - start !== 4) return false;
  const first = text.charCodeAt(start);
  if (first !== 49 && first !== 50) return false;
  // Four characters with a `.` or `,` (`2.73`, `1,50`) are no year.
  for (let index = start + 1; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

// True when `text[from, to)`, at most 16 characters, holds a clause break: `,`, `;` or the word `and`,
// `while`, `but` or `whereas`. Constant time.
function opensClause(text: string, from: number, to: number): boolean {
  if (to - from > 16) return false;
  const gap = text.slice(from, to);
  return gap.includes(",") || gap.includes(";") || CLAUSE_WORDS.test(gap);
}
const CLAUSE_WORDS = /(?:^| )(?:and|while|but|whereas)(?: |$)/;

// The mentions a unit of values weighs, relative to the last one ending before it: that one, the one
// before it, and the two after it.
const CANDIDATE_OFFSETS = [0, -1, 1, 2] as const;

/**
 * Per value, the columns of the one named column it belongs to: the nearest column mention by
 * characters with no other unit of values in between (a tie goes to the one before it), taken for the
 * value's whole unit (`12 - 0`, `18.17 ( 125 )`). A mention between two units belongs to the nearer one
 * (`44 pf was 9`: pf is 44's, and 9 has none). The column of row labels (column 0: rank, week, year)
 * takes only a unit right beside it (`week 5`, `5th week`), since people name it to say which row, not
 * which value. A date or a year takes no mention after it (`december 10 's high points`, `the 2007 cup
 * result`), and a day joins the year after its month (`sold 11 june 1930` is one unit). Values in a
 * circumstantial date, differences and counts (`2 more`, `3 times`), and values with no column mention,
 * get none. Linear: values and mentions are both in claim order.
 */
export function valueColumns(
  folded: string,
  values: NumberSpans,
  columnMentions: Mentions,
  counter?: StepCounter,
): (readonly number[])[] {
  // With no column mention, no value has a column: the units and dates below would choose nothing.
  if (columnMentions.length === 0) {
    if (counter !== undefined) counter.steps += values.length;
    return Array.from({ length: values.length }, () => NO_COLUMNS);
  }
  const unitOf = unitsOf(folded, values);
  // Every date, stated or circumstantial, and every year: they name no column that follows them
  // (`december 10 's high points`, `the 2007 cup result is 1 - 2`).
  const dates = datesOf(folded, values, unitOf);
  const { any: anyDate, monthBefore, monthAfter } = dates;
  const inDate = ruleOn("R8") ? dates.circumstantial : new Uint8Array(values.length);
  const columnUnitOf = joinDays(folded, values, unitOf, anyDate);
  // Per-value tables are typed arrays or lists made at their size: a claim of many numbers allocates a few
  // blocks, not an object or a closure per number.
  // Per unit (by its first value), whether it holds a date or a year.
  const dateOrYearUnit = new Uint8Array(values.length);
  // Per month-name start, the unit of the day beside it (`10 october`, `october 10`): a column named by
  // that month is the date's, and no other unit takes it (`10 october has 0-2-2 as the record`).
  const monthOfUnit = new Map<number, number>();
  const result = listOfLength<readonly number[]>(values.length);
  for (let index = 0; index < values.length; index += 1) {
    const unit = columnUnitOf[index] as number;
    if (anyDate[index] || isYear(folded, values.start(index), values.end(index))) dateOrYearUnit[unit] = 1;
    if (monthBefore[index] !== -1) monthOfUnit.set(monthBefore[index] as number, unit);
    if (monthAfter[index] !== -1) monthOfUnit.set(monthAfter[index] as number, unit);
    result[index] = NO_COLUMNS;
  }
  // Per value, where the next value outside a circumstantial date starts (a backward pass).
  const nextValueStart = new Float64Array(values.length);
  let following = folded.length + 1;
  for (let index = values.length - 1; index >= 0; index -= 1) {
    nextValueStart[index] = following;
    if (!inDate[index]) following = values.start(index);
  }
  // Per value, the index of the mention it was paired with, or -1.
  const chosenOf = new Int32Array(values.length).fill(-1);
  let lastValueEnd = -1;
  let before = -1;
  for (let first = 0; first < values.length; ) {
    let last = first;
    while (last + 1 < values.length && columnUnitOf[last + 1] === first) last += 1;
    const start = values.start(first);
    const end = values.end(last);
    // A column with another unit of values between it and this one belongs to that unit, not this one
    // (a date of the claim's circumstance stands in no one's way).
    const previousEnd = lastValueEnd;
    const nextStart = nextValueStart[last] as number;
    while (before + 1 < columnMentions.length && columnMentions.end(before + 1) <= start) before += 1;
    const dateOrYear = dateOrYearUnit[first] === 1;
    let chosenIndex = -1;
    let chosenBeside = false;
    let chosenDistance = Number.POSITIVE_INFINITY;
    // The nearest mention before the unit and the nearest after it; each may be one that only names
    // the row-label column and stands too far to count, so look one further on each side.
    for (const offset of CANDIDATE_OFFSETS) {
      const mention = before + offset;
      if (mention < 0 || mention >= columnMentions.length) continue;
      const mentionStart = columnMentions.start(mention);
      const mentionEnd = columnMentions.end(mention);
      if (mentionStart < previousEnd || mentionEnd > nextStart) continue;
      // The column a number is `of` is its own, before a nearer one after it (`a difference of 6 points`).
      const ofIt = start - mentionEnd === 4 && folded.startsWith(" of ", mentionEnd) && ruleOn("R3");
      let distance = mentionEnd <= start ? start - mentionEnd : mentionStart >= end ? mentionStart - end : 0;
      if (ofIt) distance = 0;
      // A mention between two units belongs to the nearer one (`44 pf was 9`: pf is 44's): a unit on the
      // mention's far side that stands closer to it takes it.
      const farSide =
        mentionEnd <= start
          ? previousEnd >= 0
            ? mentionStart - previousEnd
            : Number.POSITIVE_INFINITY
          : nextStart <= folded.length
            ? nextStart - mentionEnd
            : Number.POSITIVE_INFINITY;
      // A mention that opens a clause (`1,250 and profit reached 230`) is the next unit's, never the one
      // before it, however near.
      const opens = (from: number) => from >= 0 && opensClause(folded, from, mentionStart) && ruleOn("R3");
      if (mentionStart >= end && nextStart <= folded.length && opens(end)) continue;
      if (farSide < distance && ruleOn("R3") && !(mentionEnd <= start && opens(previousEnd))) continue;
      // A date or a year is introduced by a column before it (`ordered was 1 march 1933`), never by one
      // after it (`december 10 's high points`, `the 2007 cup result is 1 - 2`).
      if (dateOrYear && mentionStart >= end && ruleOn("R8")) continue;
      const dayUnit = monthOfUnit.size === 0 ? undefined : monthOfUnit.get(mentionStart);
      if (dayUnit !== undefined && dayUnit !== first && ruleOn("R18")) continue;
      const mentionColumns = columnMentions.columns(mention);
      const rowLabelsOnly = mentionColumns.length === 1 && mentionColumns[0] === 0;
      // `a rank smaller than 2`: a bound stands beside the header it compares.
      if (
        rowLabelsOnly &&
        ruleOn("R7") &&
        !(mentionEnd <= start && onlyNumberSigns(folded, mentionEnd, start))
      )
        continue;
      if (
        distance < chosenDistance ||
        (distance === chosenDistance && chosenIndex >= 0 && mentionStart < columnMentions.start(chosenIndex))
      ) {
        chosenIndex = mention;
        chosenDistance = distance;
        chosenBeside =
          mentionEnd <= start ? besideText(folded, mentionEnd, start) : besideText(folded, end, mentionStart);
      }
    }
    const columns = chosenIndex >= 0 ? columnMentions.columns(chosenIndex) : NO_COLUMNS;
    // `in 11 games`: a number right before the plural of the row labels' header counts rows.
    const countsRows =
      ruleOn("R33") &&
      startsRightAfter(folded, columnMentions, before + 1, end) &&
      namesRowLabelsInPlural(folded, columnMentions, before + 1);
    for (let index = first; index <= last; index += 1) {
      // A difference or a count (`2 more`, `3 times`) is no cell's value: it belongs to no column.
      if (countsRows || statesDifferenceOrCount(folded, values.end(index))) continue;
      // A date belongs to a column only when the column introduces it (`ordered was 1 march 1933`).
      if (chosenIndex >= 0 && (chosenBeside || !inDate[index])) {
        result[index] = columns;
        chosenOf[index] = chosenIndex;
      }
    }
    for (let index = first; index <= last; index += 1) {
      if (!inDate[index]) lastValueEnd = values.end(index);
    }
    first = last + 1;
  }
  bindSubject(folded, values, columnUnitOf, inDate, columnMentions, result, chosenOf);
  // Per value: its unit, date, difference and joiner checks (a few neighbouring characters and words
  // each), and four candidate mentions; the mention pointer only moves forward.
  if (counter !== undefined) counter.steps += folded.length + 16 * values.length + columnMentions.length;
  return result;
}
