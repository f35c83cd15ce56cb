import { numberKey } from "../numbers/index.js";
import { codePointAt, forEachLenientToken, searchIds } from "../text/index.js";
import type { Range } from "../types.js";

/** Which expected answer a case's grounded claims hold, and where. */
export interface ExpectedMatch {
  /** The expected string that matched, as the case wrote it. */
  expected: string;
  /** The index of the grounded claim (in the case's `citations`) that holds it. */
  citation: number;
  /** `[start, end)` in that claim's text (UTF-16). */
  range: Range;
}

const NUMBER_TOKEN = /^[0-9][0-9.,]*$/;
const COMMA = 44;
const DOT = 46;
const HYPHEN_MINUS = 0x2d;
const MINUS_SIGN = 0x2212;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Lenient tokens of several texts as one run of ids, a separator (-1, in no pattern) between texts. */
interface TokenRun {
  ids: number[];
  starts: number[];
  ends: number[];
  /** For each position, the index of the text it came from. */
  texts: number[];
}

/**
 * Whether a number token's key groups its digits validly: at most one `.`, no `,` after it, and with commas
 * a first group of 1 to 3 digits and the rest of exactly 3 (`1,250.5`, not `1,25` or `1,2,5,0`). One pass.
 */
export function validGrouping(key: string): boolean {
  let commas = 0;
  let group = 0;
  let dot = false;
  for (let index = 0; index < key.length; index += 1) {
    const code = key.charCodeAt(index);
    if (code === DOT) {
      if (dot || (commas > 0 && group !== 3)) return false;
      dot = true;
    } else if (code === COMMA) {
      if (dot || group === 0 || group > 3 || (commas > 0 && group !== 3)) return false;
      commas += 1;
      group = 0;
    } else if (!dot) {
      group += 1;
    }
  }
  return commas === 0 || dot || group === 3;
}

/**
 * The key a number token compares by, so that two different numbers never share one: the sign (a `-` or `−`
 * right before it, not after a letter or digit: `-40` is not `40`, `2019-20` has no sign), then its value
 * (`1,250` and `1250` alike, `3.50` and `3.5` alike) when its digits are plain and validly grouped; else its
 * text as written (`1,25`, `1,2,5,0`, `10²`, `3½` equal only themselves, not `125`, `1250`, `102`, `31`).
 * Linear in the token's length.
 */
function numberCanonical(text: string, key: string, start: number, end: number): string {
  const before = text.charCodeAt(start - 1);
  const signed =
    (before === HYPHEN_MINUS || before === MINUS_SIGN) &&
    (start < 2 || !WORD_CHAR.test(text.charAt(start - 2)));
  let plain = validGrouping(key);
  for (let index = start; plain && index < end; ) {
    const code = codePointAt(text, index) ?? 0;
    const ascii = (code >= 48 && code <= 57) || code === COMMA || code === DOT;
    if (!ascii && !DECIMAL_DIGIT.test(String.fromCodePoint(code))) plain = false;
    index += code > 0xffff ? 2 : 1;
  }
  const value = plain ? `#${numberKey(key)}` : `=${text.slice(start, end)}`;
  return signed && value !== "#0" ? `-${value}` : value;
}

// A lenient token's canonical form: case, diacritics and punctuation are already gone; a number is keyed by
// `numberCanonical` (a negative one starts with `-`, a word never does).
function canonicalOf(text: string, key: string, start: number, end: number): string {
  return NUMBER_TOKEN.test(key) ? numberCanonical(text, key, start, end) : key;
}

function idOf(canonical: string, ids: Map<string, number>): number {
  let id = ids.get(canonical);
  if (id === undefined) {
    id = ids.size;
    ids.set(canonical, id);
  }
  return id;
}

function readTexts(texts: readonly string[], ids: Map<string, number>): TokenRun {
  const run: TokenRun = { ids: [], starts: [], ends: [], texts: [] };
  for (const [index, text] of texts.entries()) {
    if (index > 0) {
      run.ids.push(-1);
      run.starts.push(0);
      run.ends.push(0);
      run.texts.push(-1);
    }
    forEachLenientToken(text, (key, start, end) => {
      const canonical = canonicalOf(text, key, start, end);
      run.ids.push(idOf(canonical, ids));
      // A sign is part of its number's range.
      run.starts.push(canonical.startsWith("-") ? start - 1 : start);
      run.ends.push(end);
      run.texts.push(index);
    });
  }
  return run;
}

/**
 * The first expected answer (in the order given) whose lenient tokens occur as a run of whole tokens in one
 * grounded claim, with the claim's index and the range of that run; null when none does. Numbers compare by
 * sign and value, and only when written plainly (`numberCanonical`). An expected string without tokens (only punctuation) never matches. One linear search per expected
 * answer over all claims at once: O(Σ claims × expected count + Σ expected), the count bounded by
 * `MAX_EXPECTED_ANSWERS`.
 */
export function matchExpected(claims: readonly string[], expected: readonly string[]): ExpectedMatch | null {
  const ids = new Map<string, number>();
  const run = readTexts(claims, ids);
  const text = Int32Array.from(run.ids);
  for (const answer of expected) {
    const pattern: number[] = [];
    forEachLenientToken(answer, (key, start, end) => {
      pattern.push(idOf(canonicalOf(answer, key, start, end), ids));
    });
    const first = pattern.length === 0 ? -1 : searchIds(text, Int32Array.from(pattern));
    if (first < 0) continue;
    const last = first + pattern.length - 1;
    return {
      expected: answer,
      citation: run.texts[first] as number,
      range: [run.starts[first] as number, run.ends[last] as number],
    };
  }
  return null;
}
