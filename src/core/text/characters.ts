/**
 * The code point at `index` of `text` (a surrogate pair read as one), or undefined past either end: what
 * `String.prototype.codePointAt` returns. The project reads code points only through this function because
 * V8's optimized `codePointAt` on a sliced string (Node 24) pairs a trailing high surrogate with the unit
 * after the slice in its parent string, so a quote cut inside an emoji could match the whole emoji.
 */
export function codePointAt(text: string, index: number): number | undefined {
  if (index < 0 || index >= text.length) return undefined;
  const high = text.charCodeAt(index);
  if (high >= 0xd800 && high <= 0xdbff && index + 1 < text.length) {
    const low = text.charCodeAt(index + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return high;
}

/**
 * The full code point that ends just before `index` in `text` (a surrogate pair read as one), or
 * undefined at the start of the text.
 */
export function codePointBefore(text: string, index: number): number | undefined {
  if (index <= 0 || index > text.length) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
  }
  return low;
}

const COMBINING_MARKS = /\p{M}/gu;
const cache = new Map<number, string>();

/**
 * The lenient form of one code point: compatibility-decomposed (NFKD), case-folded, combining marks
 * dropped. Empty for a combining mark. Folding one code point at a time keeps every folded character
 * traceable to its place in the original text.
 */
export function foldCodePoint(codePoint: number): string {
  // ASCII needs only lower-casing; skipping the cache keeps tokenizing a large source cheap.
  if (codePoint < 0x80) {
    return codePoint >= 0x41 && codePoint <= 0x5a
      ? String.fromCharCode(codePoint + 0x20)
      : String.fromCharCode(codePoint);
  }
  const cached = cache.get(codePoint);
  if (cached !== undefined) return cached;
  // Lower-, upper- then lower-casing approximates full case folding (`ẞ`, `ß` and `SS` all become `ss`);
  // the second NFKD splits what casing may compose (`ǰ` upper-cases to `J` plus a combining caron).
  const folded = String.fromCodePoint(codePoint)
    .normalize("NFKD")
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "");
  cache.set(codePoint, folded);
  return folded;
}

/**
 * True when the UTF-16 code unit `charCode` is whitespace as JavaScript's `\s` reads it (every such
 * character is in the BMP, so one code unit is enough).
 */
export function isWhitespaceChar(charCode: number): boolean {
  // A switch instead of /\s/.test keeps the scans over 100,000-character sources allocation-free.
  if (charCode <= 0x20) return charCode === 0x20 || (charCode >= 0x09 && charCode <= 0x0d);
  if (charCode < 0xa0) return false;
  return (
    charCode === 0xa0 ||
    charCode === 0x1680 ||
    (charCode >= 0x2000 && charCode <= 0x200a) ||
    charCode === 0x2028 ||
    charCode === 0x2029 ||
    charCode === 0x202f ||
    charCode === 0x205f ||
    charCode === 0x3000 ||
    charCode === 0xfeff
  );
}

/**
 * A class of characters given by a pattern of one character (`/^[…]$/u`), read a table look-up a character: per
 * UTF-16 code unit of the BMP, 1 when the character is in the class, made on first use (one pattern test each of
 * 63,488 characters, once a process); a surrogate pair is tested against the pattern.
 */
export class CharacterClass {
  private table: Uint8Array | undefined;

  constructor(private readonly pattern: RegExp) {}

  /**
   * Where the first character of `text` at or after `from` in the class starts (as `text.search` of the class
   * from there, read by code points), or -1. O(text).
   */
  search(text: string, from = 0): number {
    this.table ??= Uint8Array.from({ length: 0x10000 }, (_, code) =>
      (code < 0xd800 || code > 0xdfff) && this.pattern.test(String.fromCharCode(code)) ? 1 : 0,
    );
    const table = this.table;
    for (let at = from; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (table[code] === 1) return at;
      if (code >= 0xd800 && code <= 0xdbff && at + 1 < text.length) {
        const low = text.charCodeAt(at + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          if (this.pattern.test(text.slice(at, at + 2))) return at;
          at++;
        }
      }
    }
    return -1;
  }
}

const DECIMAL_DIGITS = new CharacterClass(/^\p{Nd}$/u);

/** Whether `text` holds a decimal digit of any script (`/\p{Nd}/u.test(text)`), a table look-up a character. O(text). */
export const hasDecimalDigit = (text: string): boolean => DECIMAL_DIGITS.search(text) >= 0;

const WORD_CHAR = /^[\p{L}\p{N}\p{M}]$/u;

/**
 * True when `codePoint` is part of a word: a letter or digit of any script, or a combining mark (which
 * belongs to the letter before it, so `cafe` must not match inside a decomposed `café`).
 */
export function isWordChar(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  // ASCII first: almost every boundary check in real text lands here.
  if (codePoint < 0x80) {
    return (
      (codePoint >= 0x30 && codePoint <= 0x39) ||
      (codePoint >= 0x41 && codePoint <= 0x5a) ||
      (codePoint >= 0x61 && codePoint <= 0x7a)
    );
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}

// Defined in src/util.ts, which the wire and error layers may import too.
export { splitsSurrogatePair } from "../../util.js";

/** Where the run of word characters (letters, digits, marks; any script) starting at `start` ends. */
export function wordEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    // ASCII first: labels and claims are mostly ASCII.
    if (code < 128) {
      if ((code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122)) {
        end += 1;
        continue;
      }
      break;
    }
    const codePoint = codePointAt(text, end) as number;
    if (!isWordChar(codePoint)) break;
    end += codePoint > 0xffff ? 2 : 1;
  }
  return end;
}
