import { codePointAt, foldCodePoint } from "./characters.js";

/** One lenient token: its folded `key` and its `[start, end)` range in the original text (UTF-16). */
export interface LenientToken {
  key: string;
  start: number;
  end: number;
}

const OTHER = 0;
const LETTER = 1;
const DIGIT = 2;
const DIGIT_SEPARATOR = 3;
type CharClass = typeof OTHER | typeof LETTER | typeof DIGIT | typeof DIGIT_SEPARATOR;

/** One character of a folded code point, classified. */
interface FoldedChar {
  text: string;
  charClass: CharClass;
}

/** A non-ASCII code point, folded and classified once. */
interface FoldedCodePoint {
  chars: readonly FoldedChar[];
  /** How many UTF-16 units `toLowerCase` adds for it (`İ` becomes `i` plus a combining dot). */
  lowerCaseGrowth: number;
}

const ASCII_FOLDED = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code).toLowerCase());
const ASCII_CLASSES = ASCII_FOLDED.map(classify);
const foldedCodePoints = new Map<number, FoldedCodePoint>();

/**
 * Reads `text` as lenient tokens in order: runs of letters and digits of any script, case-folded,
 * diacritics removed (NFKD), where a `.` or `,` between two digits stays inside (`1,452.4` is one token).
 * Each token keeps its range in the original text, whatever NFKD did to the length.
 */
export function tokenizeLenient(text: string): LenientToken[] {
  const tokens: LenientToken[] = [];
  forEachLenientToken(text, (key, start, end) => {
    tokens.push({ key, start, end });
  });
  return tokens;
}

/**
 * Calls `visit` with each lenient token of `text` in order (see `tokenizeLenient`), without building token
 * objects: a source's index keeps only ids and offsets.
 */
export function forEachLenientToken(
  text: string,
  visit: (key: string, start: number, end: number) => void,
): void {
  // One pass over the original code points, folding each on its own, so offsets never drift. Tokens whose
  // original text is ASCII (nearly all) slice their key from the lower-cased text, shifted by what
  // lower-casing added before them; only the rest build their key char by char.
  const lower = text.toLowerCase();
  let lowerShift = 0;
  let tokenStart = -1;
  let tokenShift = 0;
  let tokenEnd = 0;
  let builtKey: string | null = null;
  let lastWasDigit = false;
  let separator = "";
  let separatorEnd = 0;
  let separatorAscii = true;

  const asciiKey = (end: number): string => lower.slice(tokenStart + tokenShift, end + tokenShift);
  const close = (): void => {
    if (tokenStart >= 0) {
      const key = builtKey ?? asciiKey(tokenEnd);
      visit(key, tokenStart, tokenEnd);
    }
    tokenStart = -1;
    builtKey = null;
    lastWasDigit = false;
    separator = "";
  };
  const feed = (char: string, charClass: CharClass, start: number, end: number, ascii: boolean): void => {
    if (charClass === OTHER || (charClass === DIGIT_SEPARATOR && (separator !== "" || !lastWasDigit))) {
      close();
      return;
    }
    if (charClass === DIGIT_SEPARATOR) {
      // Whether it joins two digits is known only at the next character.
      separator = char;
      separatorEnd = end;
      separatorAscii = ascii;
      return;
    }
    if (separator !== "") {
      if (charClass === DIGIT) {
        if (builtKey === null && !separatorAscii) builtKey = asciiKey(tokenEnd);
        if (builtKey !== null) builtKey += separator;
        tokenEnd = separatorEnd;
        separator = "";
      } else {
        close();
      }
    }
    if (tokenStart < 0) {
      tokenStart = start;
      tokenShift = lowerShift;
      builtKey = ascii ? null : "";
    } else if (builtKey === null && !ascii) {
      builtKey = asciiKey(start);
    }
    if (builtKey !== null) builtKey += char;
    tokenEnd = end;
    lastWasDigit = charClass === DIGIT;
  };

  for (let index = 0; index < text.length; ) {
    const code = text.charCodeAt(index);
    if (code < 0x80) {
      const charClass = ASCII_CLASSES[code] ?? OTHER;
      if (
        tokenStart >= 0 &&
        builtKey === null &&
        separator === "" &&
        (charClass === LETTER || charClass === DIGIT)
      ) {
        // The common case, inlined: an ASCII letter or digit extending an ASCII token.
        tokenEnd = index + 1;
        lastWasDigit = charClass === DIGIT;
        index += 1;
        continue;
      }
      feed(ASCII_FOLDED[code] ?? "", charClass, index, index + 1, true);
      index += 1;
      continue;
    }
    const codePoint = codePointAt(text, index) ?? code;
    const end = index + (codePoint > 0xffff ? 2 : 1);
    const { chars, lowerCaseGrowth } = foldedCodePoint(codePoint);
    if (chars.length === 0) {
      // A combining mark belongs to the character before it, so a token's range keeps its marks.
      if (separator !== "") {
        separatorEnd = end;
        separatorAscii = false;
      } else if (tokenStart >= 0) {
        if (builtKey === null) builtKey = asciiKey(index);
        tokenEnd = end;
      }
    }
    for (const char of chars) feed(char.text, char.charClass, index, end, false);
    lowerShift += lowerCaseGrowth;
    index = end;
  }
  close();
}

/** A non-ASCII code point folded and classified, cached: real text repeats the same few. */
function foldedCodePoint(codePoint: number): FoldedCodePoint {
  const cached = foldedCodePoints.get(codePoint);
  if (cached !== undefined) return cached;
  const original = String.fromCodePoint(codePoint);
  const folded: FoldedCodePoint = {
    chars: Array.from(foldCodePoint(codePoint), (text) => ({ text, charClass: classify(text) })),
    lowerCaseGrowth: original.toLowerCase().length - original.length,
  };
  foldedCodePoints.set(codePoint, folded);
  return folded;
}

function classify(char: string): CharClass {
  if (char === "." || char === ",") return DIGIT_SEPARATOR;
  if (/^\p{N}$/u.test(char)) return DIGIT;
  return /^\p{L}$/u.test(char) ? LETTER : OTHER;
}
