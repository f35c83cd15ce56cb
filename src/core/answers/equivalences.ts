import type { Country } from "world-countries";
import worldCountries from "world-countries";
import {
  DECADE,
  forEachScaledNumber,
  forEachScaledNumberSpan,
  numberKey,
  scaledNumberKey,
  smallWholeNumber,
} from "../numbers/index.js";
import type { StepCounter } from "../step-counter.js";
import { codePointAt, codePointBefore, foldWord, forEachWord, wordSteps } from "../text/index.js";

// The package is CommonJS with an ES default in its types: Node's import gives the list as the default, a
// bundler may give it under `default`.
const countryList = (): readonly Country[] => {
  const loaded = worldCountries as unknown as Country[] | { default: Country[] };
  return Array.isArray(loaded) ? loaded : loaded.default;
};

/**
 * Equivalences, never relaxations: each maps one written form of a name, date or number to another that means
 * exactly the same, so a source that writes one form holds the other (docs/matching.md#answers). A form no
 * source writes in any equivalent way is still not found. Every reader here is one left-to-right pass with
 * bounded look-ahead: O(text).
 */

// Month names and their abbreviations (`Sept`, `Sep.`), folded, to the month's number.
/** The twelve month names, folded, in order. */
export const MONTH_NAMES: readonly string[] = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTHS = new Map<string, number>();
for (const [index, name] of MONTH_NAMES.entries()) {
  MONTHS.set(name, index + 1);
  // `May` is its own abbreviation; `mar` and `may` are also words, so abbreviations count only capitalised.
  if (name.length > 3) MONTHS.set(name.slice(0, 3), index + 1);
}
MONTHS.set("sept", 9);

/** The month (1–12) a written word names (`November`, `Nov`, `Nov.`, `Sept`), else 0. Abbreviations count only capitalised. */
export function monthOf(written: string): number {
  const folded = foldWord(written.endsWith(".") ? written.slice(0, -1) : written);
  const month = MONTHS.get(folded) ?? 0;
  if (month === 0 || folded.length > 4 || folded === "may" || folded === "june" || folded === "july")
    return month;
  const first = written.charCodeAt(0);
  return first >= 65 && first <= 90 ? month : 0;
}

// Numeric dates with the year first (`2003-06-11`, `2003.06.11`, `2003/06/11`), or last with the day or month
// first (`11/06/2003`, `13.08.1961`): the first is read year-month-day; the second only when one of its parts
// is over 12 (`13/08/1961` is the 13th of August), never guessed.
const YEAR_FIRST = /(?<![\p{L}\p{N}.,/-])(\d{4})([-./])(\d{1,2})\2(\d{1,2})(?![\p{N}]|[-./]\p{N})/gu;
const YEAR_LAST = /(?<![\p{L}\p{N}.,/-])(\d{1,2})([-./])(\d{1,2})\2(\d{4})(?![\p{N}]|[-./]\p{N})/gu;

/** A date read from a text: its `YYYY-MM-DD` form and where it is written. */
export interface WrittenDate {
  date: string;
  month: number;
  start: number;
  end: number;
}

const pad = (value: number): string => String(value).padStart(2, "0");

function validDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

// A year, and before it (within NAMED_DATE_REACH characters) a month name and a day (`November 10, 2018`,
// `Nov. 10 2018`) or a day and a month name (`10 November 2018`, `10th of Nov. 2018`). The pattern before the
// year runs on that short slice only, so a text costs O(length + years × NAMED_DATE_REACH²).
const BEFORE_YEAR =
  /(?<![\p{L}\p{N}])(?:(\p{L}{3,9})\.?[ \t\u00a0]{1,3}(\d{1,2})(?:st|nd|rd|th)?,?|(\d{1,2})(?:st|nd|rd|th)?[ \t\u00a0]{1,3}(?:of[ \t\u00a0]{1,3})?(\p{L}{3,9})\.?,?)[ \t\u00a0]{1,3}$/u;
/** How far before its year a named date's month and day may start (`forEachDate`). */
export const NAMED_DATE_REACH = 24;

// A space the named-date pattern allows between its parts.
const isDateSpace = (code: number): boolean => code === 32 || code === 9 || code === 0xa0;
const isDigitCode = (code: number): boolean => code >= 48 && code <= 57;

// Whether what is written before a year at `year` may end as BEFORE_YEAR does: spaces, after a month name (a
// letter, maybe then `.` and `,`), an ordinal suffix (a letter) or a day of one or two digits after a space.
// A cheap look back that rejects only what the pattern would, so most years (`in 1932`, `1,600, 1945`) are
// not matched against it at all. O(1).
function mayFollowDayAndMonth(text: string, year: number): boolean {
  let at = year - 1;
  if (at < 0 || !isDateSpace(text.charCodeAt(at))) return false;
  while (at >= 0 && isDateSpace(text.charCodeAt(at))) at -= 1;
  if (text.charCodeAt(at) === 44) at -= 1;
  if (text.charCodeAt(at) === 46) at -= 1;
  if (at < 0) return false;
  const code = text.charCodeAt(at);
  if (code >= 128 || ((code | 32) >= 97 && (code | 32) <= 122)) return true;
  if (!isDigitCode(code)) return false;
  let digits = 1;
  while (digits <= 2 && at - digits >= 0 && isDigitCode(text.charCodeAt(at - digits))) digits += 1;
  return digits <= 2 && isDateSpace(text.charCodeAt(at - digits));
}

// What may follow a run of digits ending at `end` (one bit each): NUMERIC_DATE_SHAPE for `-`, `.` or `/` and
// then a digit (`2003-06`, `11/06`: both numeric date forms hold one), SHORT_RANGE_SHAPE for a dash (`-`,
// `–`, `—`) after at most two spaces or tabs (SHORT_YEAR_RANGE holds one). A text whose digit runs have
// neither is not matched against those patterns. O(1).
const NUMERIC_DATE_SHAPE = 1;
const SHORT_RANGE_SHAPE = 2;
const isDash = (code: number): boolean => code === 45 || code === 0x2013 || code === 0x2014;
const isRangeSpace = (code: number): boolean => code === 32 || code === 9;
function shapeAfterDigits(text: string, end: number): number {
  const code = text.charCodeAt(end);
  if (code === 45 || code === 46 || code === 47)
    return (
      (code === 45 ? SHORT_RANGE_SHAPE : 0) | (isDigitCode(text.charCodeAt(end + 1)) ? NUMERIC_DATE_SHAPE : 0)
    );
  if (isDash(code)) return SHORT_RANGE_SHAPE;
  if (!isRangeSpace(code)) return 0;
  const next = text.charCodeAt(end + 1);
  if (isDash(next)) return SHORT_RANGE_SHAPE;
  return isRangeSpace(next) && isDash(text.charCodeAt(end + 2)) ? SHORT_RANGE_SHAPE : 0;
}

const LETTER_OR_NUMERAL = /[\p{L}\p{N}]/u;
const NUMERAL = /\p{N}/u;

/**
 * Calls `visit` with the start of each year of `text`: four ASCII digits with no letter, numeral, `.`, `,`, `/`
 * or `-` before them and no numeral after, what `(?<![\p{L}\p{N}.,/-])\d{4}(?![\p{N}])` matches (a
 * differential test holds the two equal), in one scan without a match object per year. O(text).
 */
export function forEachYearStart(text: string, visit: (start: number) => void): void {
  yearStartsAndShapes(text, visit);
}

/**
 * Whether some digit run of `text` is followed as the numeric date forms need (`2003-06`, `11/06`) and as a
 * year range written short needs (`1998–99`, `2014 - 16`): when not, those patterns cannot match. O(text).
 */
export function digitRunShapes(
  text: string,
  read: "scan" | "patterns" = "scan",
): { numericDate: boolean; shortYearRange: boolean } {
  const shapes = read === "scan" ? yearStartsAndShapes(text, () => {}) : shapesByPatterns(text);
  return {
    numericDate: (shapes & NUMERIC_DATE_SHAPE) !== 0,
    shortYearRange: (shapes & SHORT_RANGE_SHAPE) !== 0,
  };
}

// The shapes of `yearStartsAndShapes` found by patterns, for a text whose years need not be read: a digit and
// `-`, `.` or `/` and a digit; a digit, at most two spaces or tabs and a dash. Each pattern reads at most five
// characters from each place: linear, and faster than the scan where no year is wanted.
const ANY_SHAPE = /\d(?:[-./]\d|[ \t]{0,2}[-–—])/;
const NUMERIC_DATE_PATTERN = /\d[-./]\d/;
const SHORT_RANGE_PATTERN = /\d[ \t]{0,2}[-–—]/;
function shapesByPatterns(text: string): number {
  if (!ANY_SHAPE.test(text)) return 0;
  return (
    (NUMERIC_DATE_PATTERN.test(text) ? NUMERIC_DATE_SHAPE : 0) |
    (SHORT_RANGE_PATTERN.test(text) ? SHORT_RANGE_SHAPE : 0)
  );
}

// What every named date holds before its year (BEFORE_YEAR): a month's name, three letters or more. A text
// with no three letters in a row holds none, and its years are not read.
const THREE_LETTERS = /\p{L}{3}/u;

// `forEachYearStart`, returning the shapes (`shapeAfterDigits`) that follow the text's digit runs, read in
// the same scan. O(text).
function yearStartsAndShapes(text: string, visit: (start: number) => void): number {
  let shapes = 0;
  let at = 0;
  while (at < text.length) {
    if (!isDigitCode(text.charCodeAt(at))) {
      at += 1;
      continue;
    }
    let end = at + 1;
    while (end < text.length && isDigitCode(text.charCodeAt(end))) end += 1;
    if (end - at === 4 && mayStartYear(text, at) && !numeralAt(text, end)) visit(at);
    if (end < text.length) shapes |= shapeAfterDigits(text, end);
    at = end;
  }
  return shapes;
}

// No letter, numeral, `.`, `,`, `/` or `-` right before `start`.
function mayStartYear(text: string, start: number): boolean {
  if (start === 0) return true;
  const code = text.charCodeAt(start - 1);
  if (code < 128)
    return (
      !((code | 32) >= 97 && (code | 32) <= 122) &&
      !isDigitCode(code) &&
      code !== 46 &&
      code !== 44 &&
      code !== 47 &&
      code !== 45
    );
  return !LETTER_OR_NUMERAL.test(String.fromCodePoint(codePointBefore(text, start) as number));
}

// A numeral (`\p{N}`) at `at`; false past the end.
function numeralAt(text: string, at: number): boolean {
  if (at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code < 128) return isDigitCode(code);
  return NUMERAL.test(String.fromCodePoint(codePointAt(text, at) as number));
}

/** Calls `visit` with each full date of `text` (named or numeric), in order of the patterns. O(text). */
export function forEachDate(text: string, visit: (date: WrittenDate) => void): void {
  datesAndShapes(text, visit);
}

// `forEachDate`, returning the shapes (`shapeAfterDigits`) that follow the text's digit runs: one scan finds
// its years and tells whether the numeric forms need matching at all. O(text).
function datesAndShapes(text: string, visit: (date: WrittenDate) => void): number {
  if (!THREE_LETTERS.test(text)) return numericDates(text, visit, shapesByPatterns(text));
  const shapes = yearStartsAndShapes(text, (yearAt) => {
    if (!mayFollowDayAndMonth(text, yearAt)) return;
    const from = Math.max(0, yearAt - NAMED_DATE_REACH);
    const before = BEFORE_YEAR.exec(text.slice(from, yearAt));
    if (before === null) return;
    const [whole, monthFirst, dayAfter, dayFirst, monthAfter] = before;
    const month = monthOf((monthFirst ?? monthAfter) as string);
    const day = Number(dayAfter ?? dayFirst);
    const year = Number(text.slice(yearAt, yearAt + 4));
    if (month === 0 || !validDay(year, month, day)) return;
    visit({
      date: `${year}-${pad(month)}-${pad(day)}`,
      month,
      start: yearAt - whole.length,
      end: yearAt + 4,
    });
  });
  return numericDates(text, visit, shapes);
}

// Visits the numeric dates of `text` (`forEachDate`) and returns `shapes`, the text's (`yearStartsAndShapes`).
function numericDates(text: string, visit: (date: WrittenDate) => void, shapes: number): number {
  // Both numeric forms hold a digit, then `-`, `.` or `/`, then a digit: a text with none is not matched.
  if ((shapes & NUMERIC_DATE_SHAPE) === 0) return shapes;
  for (const match of text.matchAll(YEAR_FIRST)) {
    const [whole, year, , month, day] = match as unknown as string[];
    if (!validDay(Number(year), Number(month), Number(day))) continue;
    const at = match.index;
    visit({
      date: `${year}-${pad(Number(month))}-${pad(Number(day))}`,
      month: Number(month),
      start: at,
      end: at + (whole as string).length,
    });
  }
  for (const match of text.matchAll(YEAR_LAST)) {
    const [whole, first, , second, year] = match as unknown as string[];
    const a = Number(first);
    const b = Number(second);
    // Day first when the first part cannot be a month, month first when the second cannot; else ambiguous.
    let day = 0;
    let month = 0;
    if (a > 12 && b <= 12) [day, month] = [a, b];
    else if (b > 12 && a <= 12) [day, month] = [b, a];
    else if (a === b) [day, month] = [a, b];
    if (!validDay(Number(year), month, day)) continue;
    const at = match.index;
    visit({
      date: `${year}-${pad(month)}-${pad(day)}`,
      month,
      start: at,
      end: at + (whole as string).length,
    });
  }
  return shapes;
}

// A month name and a day with no year after it (`died on May 7 in Calgary`, `on 7 May,`, `the 7th of May`).
const MONTH_DAY =
  /(?<![\p{L}\p{N}])(\p{Lu}\p{L}{2,8})\.?[ \t\u00a0]{1,3}(\d{1,2})(?:st|nd|rd|th)?(?![\p{L}\p{N}])(?![.,]?[ \t\u00a0]{1,3}\d{4}(?!\p{N}))/gu;
const DAY_MONTH =
  /(?<![\p{L}\p{N}.,])(\d{1,2})(?:st|nd|rd|th)?[ \t\u00a0]{1,3}(?:of[ \t\u00a0]{1,3})?(\p{Lu}\p{L}{2,8})(?![\p{L}])\.?(?![.,]?[ \t\u00a0]{1,3}\d{4}(?!\p{N}))/gu;

/**
 * Calls `visit` with the `MM-DD` of each date of `text` written with a capitalised month name and a day but no
 * year (`May 7`, `7 May`, `7th of May`): a dated page writes the days of its own year so. O(text).
 */
export function forEachYearlessDate(text: string, visit: (monthDay: string) => void): void {
  for (const match of text.matchAll(MONTH_DAY)) {
    const month = monthOf(match[1] as string);
    if (month !== 0 && validDay(2000, month, Number(match[2])))
      visit(`${pad(month)}-${pad(Number(match[2]))}`);
  }
  for (const match of text.matchAll(DAY_MONTH)) {
    const month = monthOf(match[2] as string);
    if (month !== 0 && validDay(2000, month, Number(match[1])))
      visit(`${pad(month)}-${pad(Number(match[1]))}`);
  }
}

/** A year range whose end is cut to two digits: `1998–99`, `2014 -- 16` (century, start, end). */
export const SHORT_YEAR_RANGE =
  /(?<![\p{N}])(\d{2})(\d{2})[ \t]{0,2}(?:--?|–|—)[ \t]{0,2}(\d{2})(?![\p{N}])/gu;

/** The values (`forEachScaledNumber`) a text holds, plain and scaled alike, and its dates (`forEachDate`). */
export function valuesOf(text: string): Set<string> {
  const values = new Set<string>();
  forEachScaledNumber(text, (value) => values.add(value));
  forEachDate(text, ({ date }) => {
    values.add(date);
    // Its year and month, for `withoutEquivalentNumbers`'s test of another date of the same year or month.
    values.add(`y:${date.slice(0, 4)}`);
    values.add(`m:${date.slice(5, 7)}`);
  });
  // A day and month with no year: `md:MM-DD` (`withoutEquivalentNumbers` reads it in the source's year).
  forEachYearlessDate(text, (monthDay) => values.add(`md:${monthDay}`));
  return values;
}

/**
 * The claim text with each number and date whose value `held` holds blanked out (offsets kept), so the
 * number check looks only for the others; or the first that no equivalent form can match: a number written
 * with a scale or as a decade (`21 million`, `1990s`) whose value `held` lacks (the two-digit end of a year
 * range written short, `2018–19`, is the full year and is looked up as such), or a full date `held` lacks
 * while `nearby` (the supporting span's values) holds another date of the same year or month (its digits
 * alone would otherwise be found apart in `2018-11-10`).
 */
export function withoutEquivalentNumbers(
  text: string,
  held: (value: string) => boolean,
  nearby: (value: string) => boolean = held,
): { text: string; missing: string | null } {
  // Flat `[start, end, start, end, …]`: a claim of many numbers makes no pair per number.
  const cuts: number[] = [];
  let sorted = true;
  let missing: string | null = null;
  const cut = (start: number, end: number): void => {
    if (cuts.length > 0 && start < (cuts[cuts.length - 2] as number)) sorted = false;
    cuts.push(start, end);
  };
  const shapes = datesAndShapes(text, ({ date, start, end }) => {
    if (held(date)) cut(start, end);
    else if (missing === null && (nearby(`y:${date.slice(0, 4)}`) || nearby(`m:${date.slice(5, 7)}`)))
      missing = text.slice(start, end);
  });
  // A whole number's answer is asked once per value (`smallWholeNumber`), with no value string per number.
  const wholeHeld = new Map<number, boolean>();
  forEachScaledNumberSpan(text, (start, digitsEnd, end, scale) => {
    if (scale === 0) {
      const whole = smallWholeNumber(text, start, digitsEnd);
      let holds = whole < 0 ? undefined : wholeHeld.get(whole);
      if (holds === undefined) {
        holds = held(whole < 0 ? numberKey(text, start, digitsEnd) : String(whole));
        if (whole >= 0) wholeHeld.set(whole, holds);
      }
      if (holds) cut(start, end);
      return;
    }
    const value =
      scale === DECADE ? `${text.slice(start, digitsEnd)}s` : scaledNumberKey(text, start, digitsEnd, scale);
    if (held(value)) cut(start, end);
    else if (missing === null) missing = text.slice(start, end);
  });
  // A year range written short (`2018–19`) ends in the full year (2019): its two digits are that year.
  if ((shapes & SHORT_RANGE_SHAPE) !== 0)
    for (const match of text.matchAll(SHORT_YEAR_RANGE)) {
      const [whole, century, start, end] = match as unknown as [string, string, string, string];
      if (Number(end) > Number(start) && held(`${century}${end}`))
        cut(match.index + whole.length - 2, match.index + whole.length);
    }
  if (cuts.length === 0) return { text, missing };
  // Blanked in order, each cut by spaces of its length (a date and a number inside it may overlap); a claim
  // is one line, so no line break is blanked.
  const order = sorted ? null : Array.from({ length: cuts.length / 2 }, (_, pair) => 2 * pair);
  order?.sort((a, b) => (cuts[a] as number) - (cuts[b] as number));
  let blanked = "";
  let at = 0;
  for (let next = 0; next < cuts.length / 2; next++) {
    const pair = order === null ? 2 * next : (order[next] as number);
    const from = Math.max(cuts[pair] as number, at);
    const end = cuts[pair + 1] as number;
    if (end <= from) continue;
    blanked += text.slice(at, from) + spaces(end - from);
    at = end;
  }
  return { text: blanked + text.slice(at), missing };
}

// Runs of 0 to 64 spaces, made once: a number's blank is one of these rather than a new string.
const SPACE_RUNS: readonly string[] = Array.from({ length: 65 }, (_, count) => " ".repeat(count));

// `count` spaces.
const spaces = (count: number): string => SPACE_RUNS[count] ?? " ".repeat(count);

// Country and place names, official names, other spellings, codes and demonyms, from the world-countries
// package (ODbL): each form (its words folded) names one country. A form written in capitals there (`US`,
// `UK`, `USA`) counts only written in capitals, with or without dots (`U.S.`), so `us` the pronoun is not
// the United States.
interface CountryForms {
  /** The first folded word of each form, to the forms (word lists) that start with it and their country. */
  byFirst: Map<string, { words: string[]; country: number; capitals: boolean }[]>;
}

let countryForms: CountryForms | undefined;
const MAX_FORM_WORDS = 6;

function formsOfCountries(): CountryForms {
  if (countryForms !== undefined) return countryForms;
  const byFirst: CountryForms["byFirst"] = new Map();
  const add = (form: string, country: number): void => {
    const capitals = /^[A-Z.]{2,4}$/.test(form);
    if (!capitals && form.length < 4) return;
    const words: string[] = [];
    forEachWord(capitals ? form.replace(/\./g, "") : form, (word) => words.push(word));
    if (words.length === 0 || words.length > MAX_FORM_WORDS) return;
    const first = words[0] as string;
    const list = byFirst.get(first) ?? [];
    if (!list.some((entry) => entry.country === country && entry.words.join(" ") === words.join(" ")))
      list.push({ words, country, capitals });
    byFirst.set(first, list);
  };
  for (const [index, country] of countryList().entries()) {
    add(country.name.common, index);
    add(country.name.official, index);
    add(country.cca3, index);
    for (const spelling of country.altSpellings) add(spelling, index);
    const english = country.demonyms.eng;
    if (english !== undefined) {
      add(english.m, index);
      add(english.f, index);
    }
  }
  // Longer forms first, so the longest match wins.
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  countryForms = { byFirst };
  return countryForms;
}

/** A word of a text as the equivalence readers see it: folded, where it is, and whether it is capitalised. */
export interface ReadWord {
  folded: string;
  start: number;
  end: number;
}

function wordsOf(text: string): ReadWord[] {
  const words: ReadWord[] = [];
  forEachWord(text, (folded, start, end) => words.push({ folded, start, end }));
  return words;
}

/**
 * `forEachEquivalenceKey` over a long text, read in pieces of about `pieceChars` characters, each cut before a
 * space or line break (where no word runs on), pausing after each piece: the keys it visits are the same, in
 * the same order. Only the last KEY_REACH words wait for the next piece (a key reads at most that far ahead),
 * so the text's words are never all held at once; a piece counts its words' steps (`wordSteps`). O(text).
 */
export function* forEachEquivalenceKeyInPieces(
  text: string,
  pieceChars: number,
  visit: (key: string, start: number, end: number) => void,
  counter?: StepCounter,
): Generator<void, void> {
  let words: ReadWord[] = [];
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + Math.max(1, pieceChars));
    while (to < text.length && !isSpaceCode(text.charCodeAt(to))) to++;
    const offset = from;
    const piece = text.slice(from, to);
    forEachWord(piece, (folded, start, end) =>
      words.push({ folded, start: offset + start, end: offset + end }),
    );
    if (counter !== undefined) counter.steps += wordSteps(piece);
    const last = to >= text.length;
    const ready = last ? words.length : Math.max(0, words.length - KEY_REACH);
    forEachEquivalenceKey(text, visit, words, 0, ready);
    words = words.slice(ready);
    from = to;
    if (!last) yield;
  }
}

// A space, tab or line break: no word holds one.
const isSpaceCode = (code: number): boolean => code === 32 || code === 10 || code === 9 || code === 13;

// Whether the word at `start` starts with a capital letter: one comparison for ASCII.
function upperAt(text: string, start: number): boolean {
  const first = text.charCodeAt(start);
  if (first >= 65 && first <= 90) return true;
  return first >= 128 && UPPER.test(text.slice(start, start + 2));
}

const CAPITALS = /^(?:\p{Lu}\.?){2,5}$/u;
// Most words start with a lower-case ASCII letter or a digit: no regular expression for those.
const isCapitals = (written: string): boolean => {
  const first = written.charCodeAt(0);
  if ((first >= 97 && first <= 122) || (first >= 48 && first <= 57)) return false;
  return written.length <= 10 && CAPITALS.test(written);
};
const withoutDots = (folded: string): string => folded.replace(/\./g, "");

/**
 * The equivalence keys a run of words holds, each with the words it covers: `=country:N` for a country's
 * name, form or demonym; `=month:N` for a month's name or abbreviation; `=caps:x` for a word in capitals,
 * dots dropped (`U.S` and `US` → `us`); `=join:xy` for two adjacent capitalised words (`Tech Crunch`); `=initials:xyz` for the
 * initials of up to MAX_INITIALS capitalised words (`National Air and Space Museum`: `nasm`, small words
 * skipped). O(words × MAX_FORM_WORDS × forms per first word + words × MAX_INITIALS).
 */
export function forEachEquivalenceKey(
  text: string,
  visit: (key: string, start: number, end: number) => void,
  words: readonly ReadWord[] = wordsOf(text),
  from = 0,
  to: number = words.length,
): void {
  const { byFirst } = formsOfCountries();
  for (let at = from; at < to; at++) {
    const word = words[at] as ReadWord;
    // Every key starts at a capitalised word: names, forms, demonyms, months, joins and initials.
    if (!upperAt(text, word.start)) continue;
    const written = text.slice(word.start, word.end);
    const capitals = isCapitals(written);
    const first = capitals ? withoutDots(word.folded) : word.folded;
    for (const form of byFirst.get(first) ?? []) {
      if (form.capitals && !capitals) continue;
      if (at + form.words.length > words.length) continue;
      let matches = true;
      for (let offset = 1; offset < form.words.length && matches; offset++)
        matches = (words[at + offset] as ReadWord).folded === form.words[offset];
      if (!matches) continue;
      const last = words[at + form.words.length - 1] as ReadWord;
      visit(`=country:${form.country}`, word.start, last.end);
    }
    if (MONTHS.has(word.folded)) {
      const month = monthOf(written);
      if (month !== 0) visit(`=month:${month}`, word.start, word.end);
    }
    if (capitals) visit(`=caps:${first}`, word.start, word.end);
    const next = words[at + 1];
    if (next !== undefined && upperAt(text, next.start) && next.start - word.end === 1)
      visit(`=join:${word.folded}${next.folded}`, word.start, next.end);
    let initials = "";
    let count = 0;
    // A run reads at most MAX_RUN_WORDS words, small ones included: a long run of small words (`Of the the
    // the …`) is read once per capitalised word before it, so an unbounded one would cost words².
    const runEnd = Math.min(words.length, at + MAX_RUN_WORDS);
    for (let run = at; run < runEnd && count < MAX_INITIALS; run++) {
      const inner = words[run] as ReadWord;
      if (run > at && SMALL_WORDS.has(inner.folded)) continue;
      if (!upperAt(text, inner.start)) break;
      initials += inner.folded[0];
      count++;
      if (count >= 2) visit(`=initials:${initials}`, word.start, inner.end);
    }
  }
}

const MAX_INITIALS = 6;
const MAX_RUN_WORDS = 3 * MAX_INITIALS;
// How far ahead of its first word a key reads: an initials run, a country's form, the next word of a join.
const KEY_REACH = Math.max(MAX_RUN_WORDS, MAX_FORM_WORDS) + 1;
const SMALL_WORDS: ReadonlySet<string> = new Set([
  "of",
  "and",
  "the",
  "for",
  "&",
  "de",
  "du",
  "la",
  "on",
  "in",
]);
const UPPER = /^\p{Lu}/u;

/**
 * The keys under which a source holds a word of a claim (as written and folded) by an equivalence: a word in
 * capitals (`NASM`, `U.S`) as written in capitals elsewhere, dots aside, or as the initials of a capitalised
 * run; any word as the join of two adjacent capitalised words (`TechCrunch` and `Tech Crunch`).
 */
export function keysOfWord(written: string, folded: string): string[] {
  const keys = [`=join:${folded}`];
  if (isCapitals(written)) keys.push(`=caps:${withoutDots(folded)}`, `=initials:${withoutDots(folded)}`);
  return keys;
}

/** The `=initials:` key among a word's `keysOfWord` (a word in capitals: `NASM`, `U.S`), else null. */
export const initialsKeyOfWord = (written: string, folded: string): string | null =>
  isCapitals(written) ? `=initials:${withoutDots(folded)}` : null;
