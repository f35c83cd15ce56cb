import { codePointAt, codePointBefore } from "../text/index.js";
import { scaledNumberKey } from "./number-key.js";

// Numbers with a scale: `21K`, `1.2M`, `3bn` (glued), `21 thousand`, `1.2 million`, `3 billion` (a word after
// it); decades: `2000s`, `2000's`, `1990’s`. One left-to-right scan, with the semantics of the pattern
//   (?<![\p{L}\p{N}.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\p{N}])
//   (?:([KkMB]|bn)(?![\p{L}\p{N}])|[ \t\u00a0]{1,3}(thousand|million|billion|trillion)(?![\p{L}])|(['’]?s)(?![\p{L}\p{N}]))?
// (a differential test holds the two equal), without a match object per number.

const ZERO = 48;
const NINE = 57;
const COMMA = 44;
const DOT = 46;
const LETTER_OR_NUMERAL = /[\p{L}\p{N}]/u;
const NUMERAL = /\p{N}/u;
const LETTER = /\p{L}/u;
const SCALE_WORDS: readonly (readonly [string, number])[] = [
  ["thousand", 3],
  ["million", 6],
  ["billion", 9],
  ["trillion", 12],
];

const isDigit = (code: number): boolean => code >= ZERO && code <= NINE;
const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 0xa0;

function digitsEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
  return end;
}

// Whether the code point starting at `at` is in `pattern`'s class (false past the end); ASCII answered by
// `ascii` without the pattern.
function codePointIs(text: string, at: number, pattern: RegExp, ascii: (code: number) => boolean): boolean {
  if (at >= text.length) return false;
  const code = text.charCodeAt(at);
  if (code < 128) return ascii(code);
  return pattern.test(String.fromCodePoint(codePointAt(text, at) as number));
}

const asciiLetter = (code: number): boolean => (code | 32) >= 97 && (code | 32) <= 122;
const asciiLetterOrDigit = (code: number): boolean => asciiLetter(code) || isDigit(code);
const isNumeralAt = (text: string, at: number): boolean => codePointIs(text, at, NUMERAL, isDigit);
const isLetterAt = (text: string, at: number): boolean => codePointIs(text, at, LETTER, asciiLetter);
const isWordAt = (text: string, at: number): boolean =>
  codePointIs(text, at, LETTER_OR_NUMERAL, asciiLetterOrDigit);

// No letter, numeral, `.` or `,` right before `start`.
function mayStart(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  if (before < 128) return !(asciiLetterOrDigit(before) || before === DOT || before === COMMA);
  return !LETTER_OR_NUMERAL.test(String.fromCodePoint(codePointBefore(text, start) as number));
}

// Where a decimal part `.\d+` starting at `at` ends, or -1 when there is none.
function decimalEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== DOT || !isDigit(text.charCodeAt(at + 1))) return -1;
  return digitsEnd(text, at + 1);
}

// Where the number starting at `start` (a digit, `mayStart`) ends, or -1 when none does: thousands groups
// first (the longest whose end no numeral follows), then plain digits, each with its decimal part or without.
function scaledNumberEnd(text: string, start: number): number {
  const run = digitsEnd(text, start);
  if (run - start <= 3 && text.charCodeAt(run) === COMMA) {
    // The groups are `,ddd` one after another: the g-th ends at run + 4g.
    let groups = 0;
    while (
      text.charCodeAt(run + 4 * groups) === COMMA &&
      digitsEnd(text, run + 4 * groups + 1) >= run + 4 * groups + 4
    )
      groups += 1;
    for (let group = groups; group >= 1; group -= 1) {
      const end = run + 4 * group;
      const decimal = decimalEnd(text, end);
      if (decimal >= 0 && !isNumeralAt(text, decimal)) return decimal;
      if (!isNumeralAt(text, end)) return end;
    }
  }
  const decimal = decimalEnd(text, run);
  if (decimal >= 0 && !isNumeralAt(text, decimal)) return decimal;
  return isNumeralAt(text, run) ? -1 : run;
}

/** The scale `forEachScaledNumberSpan` gives a decade (`1990s`). */
export const DECADE = -1;

/**
 * Calls `visit` with each number of `text` (its value, whether written with a scale or as a decade, and
 * where it is written, suffix included), scales applied (`scaledNumberKey`) and decades marked. O(text).
 */
export function forEachScaledNumber(
  text: string,
  visit: (value: string, scaled: boolean, start: number, end: number) => void,
): void {
  forEachScaledNumberSpan(text, (start, digitsEnd, end, scale) => {
    if (scale > 0) visit(scaledNumberKey(text, start, digitsEnd, scale), true, start, end);
    else if (scale === DECADE) visit(`${text.slice(start, digitsEnd)}s`, true, start, end);
    else visit(scaledNumberKey(text, start, digitsEnd, 0), false, start, end);
  });
}

/**
 * `forEachScaledNumber` with no value made: `visit` gets where each number starts, where its digits end
 * (before its suffix), where it ends, and its scale (the exponent of a scale, DECADE for a decade, 0 for
 * none), so a caller makes a value only for the numbers it needs one of. O(text).
 */
export function forEachScaledNumberSpan(
  text: string,
  visit: (start: number, digitsEnd: number, end: number, scale: number) => void,
): void {
  let at = 0;
  while (at < text.length) {
    if (!isDigit(text.charCodeAt(at)) || !mayStart(text, at)) {
      at += 1;
      continue;
    }
    const numberEnd = scaledNumberEnd(text, at);
    if (numberEnd < 0) {
      at += 1;
      continue;
    }
    const suffix = suffixAt(text, numberEnd);
    const end = suffix === null ? numberEnd : suffix.end;
    if (suffix !== null && suffix.exponent > 0) visit(at, numberEnd, end, suffix.exponent);
    else if (suffix !== null && numberEnd - at === 4 && text.charCodeAt(at + 3) === ZERO && isPlain(text, at))
      visit(at, numberEnd, end, DECADE);
    else visit(at, numberEnd, end, 0);
    at = end;
  }
}

// Four digits with no separator.
function isPlain(text: string, start: number): boolean {
  for (let at = start; at < start + 4; at += 1) if (!isDigit(text.charCodeAt(at))) return false;
  return true;
}

// The suffix after a number ending at `at`, or null: its scale's exponent (0 for a decade's `s`) and its end.
function suffixAt(text: string, at: number): { exponent: number; end: number } | null {
  const code = text.charCodeAt(at);
  // Glued: `K`, `k`, `M`, `B`, `bn`, no letter or numeral after.
  const glued = code === 75 || code === 107 ? 3 : code === 77 ? 6 : code === 66 ? 9 : 0;
  if (glued > 0 && !isWordAt(text, at + 1)) {
    return { exponent: glued, end: at + 1 };
  }
  if (code === 98 && text.charCodeAt(at + 1) === 110 && !isWordAt(text, at + 2)) {
    return { exponent: 9, end: at + 2 };
  }
  // A word after one to three spaces, no letter after.
  let spaces = 0;
  while (spaces < 4 && isSpace(text.charCodeAt(at + spaces))) spaces += 1;
  const scaleInitial = text.charCodeAt(at + spaces);
  // Every scale word starts with `t`, `m` or `b`.
  if (spaces >= 1 && spaces <= 3 && (scaleInitial === 116 || scaleInitial === 109 || scaleInitial === 98)) {
    for (const [word, exponent] of SCALE_WORDS) {
      if (text.startsWith(word, at + spaces) && !isLetterAt(text, at + spaces + word.length)) {
        return { exponent, end: at + spaces + word.length };
      }
    }
  }
  // A decade: `s`, `'s` or `’s`, no letter or numeral after.
  const apostrophe = code === 39 || code === 0x2019 ? 1 : 0;
  if (text.charCodeAt(at + apostrophe) === 115 && !isWordAt(text, at + apostrophe + 1)) {
    return { exponent: 0, end: at + apostrophe + 1 };
  }
  return null;
}
