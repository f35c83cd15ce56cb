// Sources as scrapers and PDF extraction write them: pre-tokenised punctuation (` , `, `( `, ` 's`), words
// broken across lines at a hyphen, ligatures (`ﬁ`), no-break and zero-width spaces. Answer mode reads such a
// source as the clean text a reader sees, and cites it as it was given (docs/matching.md#answers).
import { memoizePerSource, type PreparedSource } from "../prepared-source.js";
import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";

/**
 * A source as answer mode reads it: `text` is the readable text; `original` the text as given, and
 * `offsets[i]` the offset in `original` of `text`'s i-th code unit (null when the two are the same text).
 */
export interface ReadableSource extends PreparedSource {
  readonly original: string;
  readonly offsets: Int32Array | null;
}

/**
 * The readable form of a prepared source, made once per prepared source object (so its own per-source views
 * are made once too). A source with nothing to clean is read as it is, with no copy. O(n).
 */
export const readableSource: (source: PreparedSource) => ReadableSource = (() => {
  const made = memoizePerSource((text, source): ReadableSource => {
    const readable = readableText(text);
    return readable === null
      ? { id: source.id, text, original: text, offsets: null }
      : { id: source.id, text: readable.text, original: text, offsets: readable.offsets };
  });
  return (source) => made(source);
})();

/** The range in the source as given of `range` in its readable text, and the text it slices. O(range). */
export function originalSpan(source: ReadableSource, range: Range): { range: Range; quote: string } {
  const { offsets, original } = source;
  if (offsets === null) return { range: [range[0], range[1]], quote: original.slice(range[0], range[1]) };
  const start = range[0] < offsets.length ? (offsets[range[0]] as number) : original.length;
  const end = range[1] > range[0] ? (offsets[range[1] - 1] as number) + 1 : start;
  // The last character read may be the first half of a surrogate pair in the original (never for a
  // readable text, whose pairs map one unit to one unit); keep the range on whole characters.
  return { range: [start, end], quote: original.slice(start, end) };
}

// Characters a reader does not see: soft hyphen, zero-width space and non-joiner, word joiner, BOM.
const INVISIBLE = new Set([0x00ad, 0x200b, 0x200c, 0x2060, 0xfeff]);
// Spaces that do not break a line or are narrow: read as a space.
const SPACE_LIKE = new Set([0x00a0, 0x2007, 0x202f, 0x2009]);
// Latin ligatures U+FB00 to U+FB06.
const LIGATURES = ["ff", "fi", "fl", "ffi", "ffl", "st", "st"];
// Punctuation a tokeniser writes with a space before it: `word ,`, `( word )`, `12 %`.
const CLOSING = new Set([..."),;:!?%]"].map((character) => character.charCodeAt(0)));
const OPENING = new Set([..."([$"].map((character) => character.charCodeAt(0)));
// Contractions a tokeniser splits off: `town 's`, `do n't`, `they 're`.
const CLITIC = /^(?:['’](?:s|re|ve|ll|d|m)|n['’]t)(?![\p{L}\p{N}])/iu;
const CLITIC_CHARS = 5;
// Spaces and tabs looked over around a hyphen broken across lines.
const MAX_BREAK_SPACES = 8;

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09;
const isLower = (code: number): boolean => (code >= 0x61 && code <= 0x7a) || (code >= 0xdf && code <= 0xff);
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isWordEnd = (code: number): boolean =>
  !(Number.isNaN(code) || isSpace(code) || code === 0x0a || code === 0x0d);

/**
 * The text a reader sees, with each of its code units' offset in `text`, or null when it is the text itself:
 * invisible characters dropped, no-break spaces read as spaces, ligatures spelled out, a lower-case word
 * broken across lines at a hyphen joined, and the spaces a tokeniser put before closing punctuation and
 * clitics or after opening brackets removed. One pass left to right, each character read a bounded number
 * of times (with `counter`, the reads): O(n).
 */
export function readableText(
  text: string,
  counter?: StepCounter,
): { text: string; offsets: Int32Array } | null {
  if (counter !== undefined) counter.steps += text.length;
  if (!needsReading(text)) return null;
  const out = new Output(text.length);
  for (let at = 0; at < text.length; ) {
    // A step per character passed and per look-ahead (a line break's spaces, a clitic, an opening's spaces).
    if (counter !== undefined) counter.steps += 1;
    const code = text.charCodeAt(at);
    if (INVISIBLE.has(code)) {
      at++;
      continue;
    }
    if (SPACE_LIKE.has(code)) {
      out.emit(0x20, at++);
      continue;
    }
    if (code >= 0xfb00 && code <= 0xfb06) {
      for (const letter of LIGATURES[code - 0xfb00] as string) out.emit(letter.charCodeAt(0), at);
      at++;
      continue;
    }
    if (code === 0x2d && isLower(out.last())) {
      if (counter !== undefined) counter.steps += 2 * MAX_BREAK_SPACES + 3;
      const joined = afterLineBreak(text, at + 1);
      if (joined >= 0) {
        at = joined;
        continue;
      }
    }
    if (isSpace(code)) {
      let end = at + 1;
      while (end < text.length && isSpace(text.charCodeAt(end))) end++;
      if (counter !== undefined) counter.steps += end - at + CLITIC_CHARS;
      if (isWordEnd(out.last()) && closesAfterSpace(text, end, out.last())) {
        at = end;
        continue;
      }
      for (; at < end; at++) out.emit(text.charCodeAt(at), at);
      continue;
    }
    out.emit(code, at++);
    if (OPENING.has(code)) {
      let end = at;
      while (end < text.length && isSpace(text.charCodeAt(end))) end++;
      if (counter !== undefined) counter.steps += end - at + 1;
      const next = text.charAt(end);
      if (end > at && (code === 0x24 ? isDigit(next.charCodeAt(0)) : OPENS_ONTO.test(next))) at = end;
    }
  }
  return out.done();
}

// What an opening bracket's spaces are a tokeniser's before: a word or a quotation mark.
const OPENS_ONTO = /^[\p{L}\p{N}"'“‘]$/u;

/** The readable text's code units and each one's offset in the original, grown by doubling. */
class Output {
  private units: Uint16Array;
  private offsets: Int32Array;
  private length = 0;

  constructor(capacity: number) {
    this.units = new Uint16Array(capacity + 16);
    this.offsets = new Int32Array(capacity + 16);
  }

  emit(code: number, at: number): void {
    if (this.length === this.units.length) {
      const units = new Uint16Array(2 * this.length);
      units.set(this.units);
      this.units = units;
      const offsets = new Int32Array(2 * this.length);
      offsets.set(this.offsets);
      this.offsets = offsets;
    }
    this.units[this.length] = code;
    this.offsets[this.length++] = at;
  }

  /** The last code unit emitted, or NaN. */
  last(): number {
    return this.length === 0 ? Number.NaN : (this.units[this.length - 1] as number);
  }

  done(): { text: string; offsets: Int32Array } {
    let text = "";
    for (let from = 0; from < this.length; from += CHUNK)
      text += String.fromCharCode(...this.units.subarray(from, Math.min(this.length, from + CHUNK)));
    return { text, offsets: this.offsets.subarray(0, this.length) };
  }
}

// Code units turned into a string at once (a spread argument list stays well under engines' limits).
const CHUNK = 8192;

// Where the word goes on after a hyphen at `from`'s left that ends its line (`passen-\ngers`): the offset
// of the lower-case letter on the next line, or -1.
function afterLineBreak(text: string, from: number): number {
  let at = from;
  while (at < text.length && at - from < MAX_BREAK_SPACES && isSpace(text.charCodeAt(at))) at++;
  if (text.charCodeAt(at) === 0x0d) at++;
  if (text.charCodeAt(at) !== 0x0a) return -1;
  at++;
  const start = at;
  while (at < text.length && at - start < MAX_BREAK_SPACES && isSpace(text.charCodeAt(at))) at++;
  return isLower(text.charCodeAt(at)) ? at : -1;
}

// Whether the spaces before `at` are a tokeniser's: closing punctuation (a full stop only at a sentence's
// end, `%` only after a digit) or a clitic follows.
function closesAfterSpace(text: string, at: number, before: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 0x25) return isDigit(before);
  if (CLOSING.has(code)) return true;
  if (code === 0x2e) {
    const next = text.charCodeAt(at + 1);
    return Number.isNaN(next) || !isWordEnd(next) || next === 0x22 || next === 0x27;
  }
  if (code === 0x27 || code === 0x2019 || code === 0x6e || code === 0x4e)
    return CLITIC.test(text.slice(at, at + CLITIC_CHARS));
  return false;
}

// One scan: does the text hold anything `readableText` would change? Most sources do not.
const NEEDS_READING =
  /[\u00ad\u200b\u200c\u2060\ufeff\u00a0\u2007\u202f\u2009\ufb00-\ufb06]|[a-z\u00df-\u00ff]-[ \t]{0,8}\r?\n|[^\s][ \t]{1,8}(?:[),;:!?%\].]|['’](?:s|re|ve|ll|d|m)\b|n['’]t\b)|[([$][ \t]/u;

function needsReading(text: string): boolean {
  return NEEDS_READING.test(text);
}
