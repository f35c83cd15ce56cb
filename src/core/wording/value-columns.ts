import type { StepCounter } from "../step-counter.js";
import { isWhitespaceChar } from "../text/index.js";
import type { Mention } from "./mention.js";

/** A number of the claim: where its digits are in the folded claim. */
export interface NumberSpan {
  start: number;
  end: number;
}

// Characters that join numbers into one unit: scores `12 - 0`, times `5:06.72`, ratios `2:1`, twins
// `18.17 ( 125 )`, sums `70 + 71 = 141`, set scores `6 - 2 , 6 - 0`, dates `12/04/1969`.
const UNIT_JOINERS = new Set([" ", "-", "\u2013", "\u2014", "\u2212", ":", "/", "(", ")", "+", "=", ","]);

function joinsUnit(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) if (!UNIT_JOINERS.has(text.charAt(index))) return false;
  return true;
}

/** Per number, the index of the first number of its unit (numbers joined only by unit joiners). */
export function numberUnits(folded: string, numbers: readonly NumberSpan[]): number[] {
  const unitOf: number[] = [];
  numbers.forEach((number, index) => {
    const previous = numbers[index - 1];
    const joined = previous !== undefined && joinsUnit(folded, previous.end, number.start);
    unitOf.push(joined ? (unitOf[index - 1] as number) : index);
  });
  return unitOf;
}

// True when `text[from, to)` holds only digits, spaces, `/` and `-`: the inside of `12/04/1969`.
function onlyDateJoiners(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index += 1) {
    const code = text.charCodeAt(index);
    if (!((code >= 48 && code <= 57) || code === 32 || code === 47 || code === 45)) return false;
  }
  return true;
}

// Words that may stand between a column and its number with the number still beside it.
const LINKS = new Set(["was", "is", "of", "on", "were", "in", "at", "for", "the"]);

// True when `text[from, to)` is at most one linking word, spaces and `:` or `,`: `week 5`, `date was
// 1 march 1933`, `points : 12`. Only short spans are read, so this is constant time.
function besideText(text: string, from: number, to: number): boolean {
  if (to - from > 8) return false;
  // The words are the runs between whitespace, `:` and `,`: read in place, with no slice but the one word.
  let wordStart = -1;
  let wordEnd = -1;
  for (let index = from; index <= to; index += 1) {
    const code = index < to ? text.charCodeAt(index) : 32;
    const separator = code === 58 || code === 44 || isWhitespaceChar(code);
    if (!separator) {
      if (wordStart < 0) wordStart = index;
      else if (wordEnd >= 0) return false;
      continue;
    }
    if (wordStart >= 0 && wordEnd < 0) wordEnd = index;
  }
  return wordStart < 0 || LINKS.has(text.slice(wordStart, wordEnd));
}

// True when `text[from, to)` holds only spaces, `.`, `#` and `:` (at most 3): `week 5`, `no. 5`, `# 5`.
function onlyNumberSigns(text: string, from: number, to: number): boolean {
  if (to - from > 3) return false;
  for (let index = from; index < to; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 46 && code !== 35 && code !== 58) return false;
  }
  return true;
}

const MONTHS = new Set(
  "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec".split(
    " ",
  ),
);

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || code > 127;
}

// Where the word that ends at or before `end` starts (spaces and `,` skipped).
function wordStartBefore(text: string, end: number): number {
  let to = end;
  while (to > 0 && (text.charCodeAt(to - 1) === 32 || text.charCodeAt(to - 1) === 44)) to -= 1;
  let from = to;
  while (from > 0 && isLetter(text.charCodeAt(from - 1))) from -= 1;
  return from;
}

// The word that ends at or before `end` (skipping spaces and `,`), lower case.
function wordBefore(text: string, end: number): string {
  const from = wordStartBefore(text, end);
  let to = from;
  while (to < text.length && isLetter(text.charCodeAt(to))) to += 1;
  return text.slice(from, to);
}

// Words that set a date as the claim's circumstance (`on october 17 , 1965`, `the september 21 , 1975
// game`, `for 26 april 2009`); a date after any other word, or after `:`, is stated as a value
// (`premiere was 17 june 2007`, `sold 11 june 1930`).
const CIRCUMSTANCE = new Set([
  "on",
  "since",
  "from",
  "until",
  "before",
  "after",
  "by",
  "dated",
  "the",
  "in",
  "of",
  "for",
  "at",
  "during",
  "",
]);

function isCircumstance(text: string, dateStart: number): boolean {
  let before = dateStart;
  while (before > 0 && text.charCodeAt(before - 1) === 32) before -= 1;
  if (text.charCodeAt(before - 1) === 58) return false;
  return CIRCUMSTANCE.has(wordBefore(text, dateStart));
}

// True when an ASCII regex word character (`\w`) is at `index`.
function isAsciiWordChar(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
  );
}

const ORDINAL_SUFFIXES = new Set(["st", "nd", "rd", "th"]);

// True when `st`, `nd`, `rd` or `th` starts at `from` and ends a word (`17th`, `1st of`), read in place.
function isOrdinalSuffix(text: string, from: number): boolean {
  if (from + 2 > text.length) return false;
  const first = text.charCodeAt(from);
  if (first !== 115 && first !== 110 && first !== 114 && first !== 116) return false;
  return ORDINAL_SUFFIXES.has(text.slice(from, from + 2)) && !isAsciiWordChar(text, from + 2);
}

// The word that starts at or after `start` (skipping an ordinal suffix, spaces and `of`), lower case.
function wordAfter(text: string, start: number): string {
  let from = start;
  if (isOrdinalSuffix(text, from)) from += 2;
  for (let skips = 0; skips < 2; skips += 1) {
    while (from < text.length && text.charCodeAt(from) === 32) from += 1;
    if (text.startsWith("of ", from)) from += 3;
  }
  let to = from;
  while (to < text.length && isLetter(text.charCodeAt(to))) to += 1;
  return text.slice(from, to);
}

/**
 * Per number, true when it belongs to a date set as the claim's circumstance: next to a month name (`on
 * october 17 , 1965`, `the 17th of october`, `may 18,2011`) or in a unit of three numbers joined by `/` or
 * `-` holding a four-digit year (`on 12/04/1969`), and not stated as a value (after `was`, `is`, `were`,
 * `are` or `:`). Such a date identifies the row; it is not a value of a named column.
 */
export function dateNumbers(
  folded: string,
  numbers: readonly NumberSpan[],
  unitOf: readonly number[],
): boolean[] {
  const inDate: boolean[] = [];
  numbers.forEach((number, index) => {
    if (MONTHS.has(wordBefore(folded, number.start))) {
      const monthStart = wordStartBefore(folded, number.start);
      const previous = numbers[index - 1];
      // `17 june 2007`: the year belongs to the date that starts at 17.
      const sameDate =
        previous !== undefined &&
        monthStart - previous.end <= 6 &&
        folded.slice(previous.end, monthStart).replace(/st|nd|rd|th|of|[ ,]/g, "") === "";
      inDate.push(sameDate ? (inDate[index - 1] as boolean) : isCircumstance(folded, monthStart));
      return;
    }
    inDate.push(MONTHS.has(wordAfter(folded, number.end)) && isCircumstance(folded, number.start));
  });
  numbers.forEach((number, index) => {
    // The year after `october 17 ,` belongs to the date.
    if (inDate[index] || index === 0 || !inDate[index - 1]) return;
    const previous = numbers[index - 1] as NumberSpan;
    if (
      unitOf[index] === unitOf[index - 1] &&
      number.end - number.start === 4 &&
      previous.end < number.start
    ) {
      inDate[index] = true;
    }
  });
  for (let first = 0; first < numbers.length; ) {
    let last = first;
    while (last + 1 < numbers.length && unitOf[last + 1] === first) last += 1;
    if (last - first === 2) {
      const hasYear = [first, first + 1, last].some((index) => {
        const number = numbers[index] as NumberSpan;
        return number.end - number.start === 4;
      });
      if (
        hasYear &&
        isCircumstance(folded, (numbers[first] as NumberSpan).start) &&
        onlyDateJoiners(folded, (numbers[first] as NumberSpan).end, (numbers[last] as NumberSpan).start)
      ) {
        for (let index = first; index <= last; index += 1) inDate[index] = true;
      }
    }
    first = last + 1;
  }
  return inDate;
}

const NO_COLUMNS: readonly number[] = [];

// The mentions a unit of values weighs, relative to the last one ending before it: that one, the one
// before it, and the two after it.
const CANDIDATE_OFFSETS = [0, -1, 1, 2] as const;

/**
 * Per value, the columns of the one named column it belongs to: the nearest column mention by
 * characters with no other unit of values in between (a tie goes to the one before it), taken for the
 * value's whole unit (`12 - 0`, `18.17 (
 * 125 )`). The column of row labels (column 0: rank, week, year) takes only a unit right beside it
 * (`week 5`, `5th week`), since people name it to say which row, not which value. Values in a date, and
 * values with no column mention, get none. Linear: values and mentions are both in claim order.
 */
export function valueColumns(
  folded: string,
  values: readonly NumberSpan[],
  columnMentions: readonly Mention[],
  counter?: StepCounter,
): (readonly number[])[] {
  // With no column mention, no value has a column: the units and dates below would choose nothing.
  if (columnMentions.length === 0) {
    if (counter !== undefined) counter.steps += values.length;
    return values.map(() => NO_COLUMNS);
  }
  const unitOf = numberUnits(folded, values);
  const inDate = dateNumbers(folded, values, unitOf);
  const none = NO_COLUMNS;
  const result: (readonly number[])[] = values.map(() => none);
  // Per value, where the next value outside a circumstantial date starts (a backward pass).
  const nextValueStart: number[] = [];
  let following = folded.length + 1;
  for (let index = values.length - 1; index >= 0; index -= 1) {
    nextValueStart[index] = following;
    if (!inDate[index]) following = (values[index] as NumberSpan).start;
  }
  let lastValueEnd = -1;
  let before = -1;
  for (let first = 0; first < values.length; ) {
    let last = first;
    while (last + 1 < values.length && unitOf[last + 1] === first) last += 1;
    const start = (values[first] as NumberSpan).start;
    const end = (values[last] as NumberSpan).end;
    // A column with another unit of values between it and this one belongs to that unit, not this one
    // (a date of the claim's circumstance stands in no one's way).
    const previousEnd = lastValueEnd;
    const nextStart = nextValueStart[last] as number;
    while (before + 1 < columnMentions.length && (columnMentions[before + 1] as Mention).end <= start)
      before += 1;
    let chosen: Mention | undefined;
    let chosenBeside = false;
    let chosenDistance = Number.POSITIVE_INFINITY;
    // The nearest mention before the unit and the nearest after it; each may be one that only names
    // the row-label column and stands too far to count, so look one further on each side.
    for (const offset of CANDIDATE_OFFSETS) {
      const mention = columnMentions[before + offset];
      if (mention === undefined || mention.start < previousEnd || mention.end > nextStart) continue;
      const distance =
        mention.end <= start ? start - mention.end : mention.start >= end ? mention.start - end : 0;
      const beside =
        mention.end <= start
          ? besideText(folded, mention.end, start)
          : besideText(folded, end, mention.start);
      const rowLabelsOnly = mention.columns.length === 1 && mention.columns[0] === 0;
      if (rowLabelsOnly && !(mention.end <= start && onlyNumberSigns(folded, mention.end, start))) continue;
      if (
        distance < chosenDistance ||
        (distance === chosenDistance && chosen !== undefined && mention.start < chosen.start)
      ) {
        chosen = mention;
        chosenDistance = distance;
        chosenBeside = beside;
      }
    }
    for (let index = first; index <= last; index += 1) {
      // A date belongs to a column only when the column introduces it (`ordered was 1 march 1933`).
      if (chosen !== undefined && (chosenBeside || !inDate[index])) result[index] = chosen.columns;
    }
    for (let index = first; index <= last; index += 1) {
      if (!inDate[index]) lastValueEnd = (values[index] as NumberSpan).end;
    }
    first = last + 1;
  }
  // Per value: its unit, date and joiner checks (a few neighbouring characters and words each), and four
  // candidate mentions; the mention pointer only moves forward.
  if (counter !== undefined) counter.steps += folded.length + 8 * values.length + columnMentions.length;
  return result;
}
