import { grownTo } from "../lists.js";
import { codePointBefore, isWordChar } from "../text/index.js";
import { numberKey } from "./number-key.js";

/** A number found in a text: its canonical key and where its digits are, `[start, end)`. */
export interface FoundNumber {
  key: string;
  start: number;
  end: number;
}

const ZERO = 48;
const NINE = 57;
const COMMA = 44;
const DOT = 46;
const NUMERAL = /\p{N}/u;

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= ZERO && code <= NINE;
}

function digitsEnd(text: string, from: number, to: number): number {
  let end = from;
  while (end < to && isDigitAt(text, end)) end += 1;
  return end;
}

// A number may start here when no letter or digit comes right before it (`Q3`, `FY2023`, `H1` hold none),
// and no `digit.` either, so a version `1.2.3` holds 1.2 only and `v1.2` none rather than a stray 3 or 2.
// A `,` does not block, so a list `1,2,3` holds 1, 2 and 3.
function mayStart(text: string, start: number): boolean {
  if (start === 0) return true;
  const before = text.charCodeAt(start - 1);
  if (before === DOT) {
    const beforeDot = codePointBefore(text, start - 1);
    if (beforeDot === undefined) return true;
    if (beforeDot < 128) return beforeDot < ZERO || beforeDot > NINE;
    return !NUMERAL.test(String.fromCodePoint(beforeDot));
  }
  if (before < 128)
    return !((before >= ZERO && before <= NINE) || ((before | 32) >= 97 && (before | 32) <= 122));
  return !isWordChar(codePointBefore(text, start));
}

/**
 * Where the next number within `text[from, to)` starts, or -1: a digit run that no letter, digit or
 * `digit.` comes right before. What comes before `from` counts. Loops over numbers use this and
 * `numberEnd` rather than a callback, so a hot loop allocates nothing.
 */
export function nextNumberStart(text: string, from: number, to = text.length): number {
  let index = from;
  while (index < to) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE) {
      index += 1;
      continue;
    }
    if (mayStart(text, index)) return index;
    index = digitsEnd(text, index, to);
  }
  return -1;
}

/**
 * Where the number starting at `start` ends (exclusive, at most `to`): its digits, `,` thousands groups
 * of exactly three digits (`1,2345` is 1 and then 2345) and one `.` decimal part. A sign, currency, unit
 * or parentheses are not part of it.
 */
export function numberEnd(text: string, start: number, to = text.length): number {
  let end = digitsEnd(text, start, to);
  if (end - start <= 3) {
    while (end + 4 <= to && text.charCodeAt(end) === COMMA && digitsEnd(text, end + 1, to) === end + 4)
      end += 4;
  }
  if (end + 1 < to && text.charCodeAt(end) === DOT && isDigitAt(text, end + 1))
    end = digitsEnd(text, end + 1, to);
  return end;
}

/** Every number in `text`, in order, with its key (see `numberEnd` for what a number is). */
export function findNumbers(text: string): FoundNumber[] {
  const found: FoundNumber[] = [];
  for (let start = nextNumberStart(text, 0); start >= 0; ) {
    const end = numberEnd(text, start);
    found.push({ key: numberKey(text, start, end), start, end });
    start = nextNumberStart(text, end);
  }
  return found;
}

// The storage of a list made empty: shared, since its first addition replaces it.
const NO_SPANS = new Int32Array(0);

/**
 * Numbers of a text held in one typed array, two integers each: where its digits start and end; its key
 * is read from the text when asked. A claim of a million numbers makes one typed array rather than a
 * million objects (and a list of keys) for the collector to copy. Read by index (`start(i)`, `key(i)`);
 * added to in order.
 */
export class NumberSpans {
  readonly text: string;
  #data: Int32Array;
  #length: number;

  constructor(text: string, capacity = 0) {
    this.text = text;
    this.#data = capacity > 0 ? new Int32Array(2 * capacity) : NO_SPANS;
    this.#length = 0;
  }

  /** The spans of `list` in `text`, in its order. */
  static of(text: string, list: readonly { start: number; end: number }[]): NumberSpans {
    const spans = new NumberSpans(text, list.length);
    for (const { start, end } of list) spans.add(start, end);
    return spans;
  }

  get length(): number {
    return this.#length;
  }

  start(index: number): number {
    return this.#data[2 * index] as number;
  }

  end(index: number): number {
    return this.#data[2 * index + 1] as number;
  }

  /** The key of number `index` (see `numberKey`). */
  key(index: number): string {
    return numberKey(this.text, this.start(index), this.end(index));
  }

  /** Number `index` as a plain object. */
  at(index: number): FoundNumber {
    return { key: this.key(index), start: this.start(index), end: this.end(index) };
  }

  /** Every number as a plain object, in order. */
  toArray(): FoundNumber[] {
    const list: FoundNumber[] = [];
    for (let index = 0; index < this.#length; index += 1) list.push(this.at(index));
    return list;
  }

  add(start: number, end: number): void {
    const at = 2 * this.#length;
    if (at === this.#data.length) this.#data = grownTo(this.#data, at, at + 2);
    this.#data[at] = start;
    this.#data[at + 1] = end;
    this.#length += 1;
  }

  /** A list of its own holding numbers `[0, count)`. */
  copyFirst(count: number): NumberSpans {
    const copy = new NumberSpans(this.text, Math.max(count, 4));
    for (let at = 0; at < 2 * count; at += 1) copy.#data[at] = this.#data[at] as number;
    copy.#length = count;
    return copy;
  }
}

/** `findNumbers` held column by column: for texts of very many numbers (a claim of megabytes). */
export function findNumberSpans(text: string): NumberSpans {
  const found = new NumberSpans(text);
  for (let start = nextNumberStart(text, 0); start >= 0; ) {
    const end = numberEnd(text, start);
    found.add(start, end);
    start = nextNumberStart(text, end);
  }
  return found;
}
