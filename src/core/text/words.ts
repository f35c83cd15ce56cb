/** A word of a text: its folded form and its `[start, end)` offsets (UTF-16) in that text. */
export interface WordSpan {
  /** Lower-cased, compatibility-decomposed, without Latin/Greek/Cyrillic diacritics: `Größe` → `grosse`. */
  word: string;
  start: number;
  end: number;
}

// Scripts written without spaces between words: Han and Kana are read by pairs of characters, the others need a
// dictionary to find words (ICU has one).
const UNSPACED_SCRIPT =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

// The UAX #29 word rules for spaced scripts: letters, marks and digits, joined by an apostrophe or a
// period between them (`don't`, `U.S`, `4.2`) and by a comma between digits (`1,200.50`).
const SPACED_WORD = /[\p{L}\p{M}\p{N}]+(?:['’.][\p{L}\p{M}\p{N}]+|(?<=\p{N}),\p{N}+)*/gu;

const NON_ASCII = /[\u0080-\uffff]/;
const DIACRITICS = /[\u0300-\u036f]/g;

const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });

/** Folds a word for matching: case, compatibility forms (`Ｑ３` → `q3`), diacritics, `ß` → `ss`. */
export function foldWord(word: string): string {
  return foldsToItself(word) ? word : foldChanging(word);
}

const foldChanging = (word: string): string =>
  word.normalize("NFKD").replace(DIACRITICS, "").toLowerCase().replace(/ß/g, "ss").replace(/’/g, "'");

// The characters of ASCII and of the kana block (U+3040–U+30FF) that fold to themselves, a byte each (1 when
// so). A mark (the kana voicing marks) is left out: NFKD reorders marks, so a word of them may not fold as
// each alone does. Every character of CJK Unified Ideographs (U+4E00–U+9FFF) folds to itself too.
const KANA_FIRST = 0x3040;
const SELF_FOLDING_ASCII = selfFolding(0, 0x80);
const SELF_FOLDING_KANA = selfFolding(KANA_FIRST, 0x3100);
function selfFolding(first: number, end: number): Uint8Array {
  const table = new Uint8Array(end - first);
  for (let code = first; code < end; code++) {
    const character = String.fromCharCode(code);
    table[code - first] = foldChanging(character) === character && !/\p{M}/u.test(character) ? 1 : 0;
  }
  return table;
}

// Thai (U+0E00–U+0E7F): every character folds to itself but SARA AM (U+0E33, which NFKD splits in two), a byte
// each: 255 for it, else the character's canonical combining class. NFKD reorders adjacent marks whose classes
// are not ascending, so a word folds to itself when its marks' classes ascend (as written Thai has them).
const THAI_FIRST = 0x0e00;
const THAI_END = 0x0e80;
const THAI_MARK_CLASSES: ReadonlyMap<number, number> = new Map([
  [0x0e38, 103],
  [0x0e39, 103],
  [0x0e3a, 9],
  [0x0e48, 107],
  [0x0e49, 107],
  [0x0e4a, 107],
  [0x0e4b, 107],
]);
const THAI = thaiFolding();
function thaiFolding(): Uint8Array {
  const table = new Uint8Array(THAI_END - THAI_FIRST);
  for (let code = THAI_FIRST; code < THAI_END; code++) {
    const character = String.fromCharCode(code);
    table[code - THAI_FIRST] =
      foldChanging(character) === character ? (THAI_MARK_CLASSES.get(code) ?? 0) : 255;
  }
  return table;
}

// Whether every character of `word` folds to itself (lower-case ASCII, most kana, CJK ideographs, Thai), so the
// word does: no character decomposes, changes case or is a mark that NFKD would reorder. O(word).
function foldsToItself(word: string): boolean {
  let markClass = 0;
  for (let at = 0; at < word.length; at++) {
    const code = word.charCodeAt(at);
    if (code >= THAI_FIRST && code < THAI_END) {
      const thai = THAI[code - THAI_FIRST] as number;
      if (thai === 255 || (thai !== 0 && thai < markClass)) return false;
      markClass = thai;
      continue;
    }
    markClass = 0;
    if (code < 0x80) {
      if (SELF_FOLDING_ASCII[code] === 0) return false;
    } else if (code >= 0x4e00 && code <= 0x9fff) continue;
    else if (code < KANA_FIRST || code >= 0x3100 || SELF_FOLDING_KANA[code - KANA_FIRST] === 0) return false;
  }
  return true;
}

/**
 * Splits `text` into words with their offsets. Words of spaced scripts follow the UAX #29 word rules (a
 * regular expression). Runs of Han and Katakana are cut into overlapping two-character words (`従業員数` →
 * 従業, 業員, 員数), the usual way to search Chinese and Japanese (Lucene's CJK bigrams), and so are runs of
 * Hiragana (`している` → して, てい, いる), whose one- and two-character words are the particles and endings
 * `isStopWord` drops; a word written in both (`食べる`) is its Han run and its Hiragana run. Runs of Thai, Lao,
 * Khmer and Myanmar go through `Intl.Segmenter`, whose dictionary finds their words. Callers pass a sentence or
 * a line, not a whole book.
 */
export function splitWords(text: string): WordSpan[] {
  const words: WordSpan[] = [];
  forEachWord(text, (word, start, end) => {
    words.push({ word, start, end });
  });
  return words;
}

/**
 * Calls `visit` with each word of `text` (folded) and its offsets, as `splitWords` lists them. `unspaced` says
 * whether the text may hold a script written without spaces (by default, when it does: `hasUnspacedScript`);
 * the words are the same either way for text that holds none. No word holds a space or a line break, so text
 * read in pieces cut before one gives the words of reading it whole. O(text): a character is read once, and a
 * run of Thai, Lao, Khmer or Myanmar once more by the segmenter.
 */
export function forEachWord(
  text: string,
  visit: (word: string, start: number, end: number) => void,
  unspaced: boolean = UNSPACED_SCRIPT.test(text),
  pairs?: PairWords,
): void {
  if (unspaced) forEachUnspacedWord(text, visit, pairs);
  else forEachSpacedWord(text, 0, text.length, visit);
}

/**
 * The folded words of two UTF-16 units met by `forEachWord` (the pairs of a Han, kana or Hiragana run), kept in a
 * cache of PAIR_SLOTS slots by their two units' code (`first << 16 | second`), so a text read by pairs makes no
 * string for a pair it met before. One slot a code, written over on a collision: a lookup is O(1) whatever pairs a
 * text holds (a text whose pairs collide only folds each one again, as without the cache), and the memory is
 * fixed. Fold by pair is exact: a two-unit word's fold depends on those units alone.
 */
export class PairWords {
  private readonly keys = new Int32Array(PAIR_SLOTS);
  private readonly words: string[] = new Array<string>(PAIR_SLOTS).fill("");

  /** The folded word of `text.slice(start, start + 2)`. O(1). */
  word(text: string, start: number): string {
    // No pair of a run is (0, 0): NUL is no letter, so 0 marks an empty slot.
    const key = (text.charCodeAt(start) << 16) | text.charCodeAt(start + 1);
    const slot = Math.imul(key, 0x9e3779b1) >>> (32 - PAIR_SLOT_BITS);
    if (this.keys[slot] === key) return this.words[slot] as string;
    const word = foldWord(text.slice(start, start + 2));
    this.keys[slot] = key;
    this.words[slot] = word;
    return word;
  }
}

const PAIR_SLOT_BITS = 16;
const PAIR_SLOTS = 1 << PAIR_SLOT_BITS;

// The words of `text.slice(from, to)` (which holds no character of a script without spaces), offsets in `text`.
function forEachSpacedWord(
  whole: string,
  from: number,
  to: number,
  visit: (word: string, start: number, end: number) => void,
): void {
  const text = from === 0 && to === whole.length ? whole : whole.slice(from, to);
  // Plain ASCII folds by lower-casing alone, which keeps offsets, so such text is lower-cased once.
  const ascii = !NON_ASCII.test(text);
  const lower = ascii ? text.toLowerCase() : text;
  SPACED_WORD.lastIndex = 0;
  for (let match = SPACED_WORD.exec(text); match !== null; match = SPACED_WORD.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const word = ascii
      ? lower.slice(start, end)
      : NON_ASCII.test(match[0])
        ? foldWord(match[0])
        : match[0].toLowerCase();
    visit(word, from + start, from + end);
  }
}

// What a character is to the reader of unspaced text: no letter, of a Han/Katakana run, of a Hiragana run, of a
// run the segmenter reads (Thai, Lao, Khmer, Myanmar), a combining mark (which belongs to the character before
// it), or a letter or digit of a spaced script.
const OTHER = 0;
const IDEOGRAPHIC = 1;
const HIRAGANA = 2;
const SEGMENTED = 3;
const MARK = 4;
const LETTER = 5;
const LONG_VOWEL = 0x30fc;

const IDEOGRAPHIC_CHARACTER = /^[\p{sc=Han}\p{sc=Katakana}ー\uff70\uff9e\uff9f]$/u;
const HIRAGANA_CHARACTER = /^\p{sc=Hiragana}$/u;
const SEGMENTED_CHARACTER = /^[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]$/u;
const MARK_CHARACTER = /^\p{M}$/u;
const LETTER_CHARACTER = /^[\p{L}\p{N}]$/u;
const classOfCharacter = (character: string): number =>
  IDEOGRAPHIC_CHARACTER.test(character)
    ? IDEOGRAPHIC
    : HIRAGANA_CHARACTER.test(character)
      ? HIRAGANA
      : SEGMENTED_CHARACTER.test(character)
        ? SEGMENTED
        : MARK_CHARACTER.test(character)
          ? MARK
          : LETTER_CHARACTER.test(character)
            ? LETTER
            : OTHER;

// The class of each UTF-16 code unit of the BMP, each found the first time it is read (UNKNOWN until then).
const UNKNOWN = 255;
const BMP_CLASSES = new Uint8Array(0x10000).fill(UNKNOWN);

// The class of the character at `at` (a lone surrogate is OTHER).
function classAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0xd800 || code >= 0xe000) {
    const known = BMP_CLASSES[code] as number;
    if (known !== UNKNOWN) return known;
    const kind = classOfCharacter(String.fromCharCode(code));
    BMP_CLASSES[code] = kind;
    return kind;
  }
  if (code >= 0xdc00 || at + 1 >= text.length) return OTHER;
  const low = text.charCodeAt(at + 1);
  if (low < 0xdc00 || low >= 0xe000) return OTHER;
  return classOfCharacter(text.slice(at, at + 2));
}

// The length in code units of the character at `at`: 2 for a surrogate pair, else 1.
function widthAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  if (code < 0xd800 || code >= 0xdc00 || at + 1 >= text.length) return 1;
  const low = text.charCodeAt(at + 1);
  return low >= 0xdc00 && low < 0xe000 ? 2 : 1;
}

// The unspaced reader: runs of Han and Katakana, and runs of Hiragana, read as overlapping pairs of
// characters; runs of Thai, Lao, Khmer and Myanmar through the segmenter; what lies between through the spaced
// reader. A combining mark stays with the character before it; `ー` continues a Hiragana run. O(text).
function forEachUnspacedWord(
  text: string,
  visit: (word: string, start: number, end: number) => void,
  pairs: PairWords | undefined,
): void {
  // A Han/Katakana or Hiragana run's characters by their starts (each with the marks after it): the first
  // `runLength` entries, written over from run to run (emptying the array would give up its room each run).
  const runStarts: number[] = [];
  let runLength = 0;
  let between = 0;
  // Whether the text since `between` holds a letter, digit or mark: else it holds no word.
  let letters = false;
  let at = 0;
  while (at < text.length) {
    const kind = classAt(text, at);
    if (kind === OTHER || kind === MARK || kind === LETTER) {
      if (kind !== OTHER) letters = true;
      at += widthAt(text, at);
      continue;
    }
    if (letters) forEachSpacedWord(text, between, at, visit);
    letters = false;
    const start = at;
    runLength = 0;
    for (;;) {
      const next = at < text.length ? classAt(text, at) : OTHER;
      const continues =
        next === kind ||
        (next === MARK && at > start) ||
        (kind === HIRAGANA && text.charCodeAt(at) === LONG_VOWEL && at > start);
      if (!continues) break;
      // A run the segmenter reads needs no starts.
      if (next !== MARK && kind !== SEGMENTED) runStarts[runLength++] = at;
      at += widthAt(text, at);
    }
    if (kind === SEGMENTED) visitSegmented(text, start, at, visit);
    else visitBigrams(text, runStarts, runLength, at, visit, pairs);
    between = at;
  }
  if (letters) forEachSpacedWord(text, between, text.length, visit);
}

// The words the segmenter finds in `text.slice(start, end)`, a run of one script that it reads by dictionary.
function visitSegmented(
  text: string,
  start: number,
  end: number,
  visit: (word: string, start: number, end: number) => void,
): void {
  // Segment by segment through `containing`, which costs less than the segments' iterator.
  const run = text.slice(start, end);
  const segments = wordSegmenter.segment(run);
  for (let at = 0; at < run.length; ) {
    const segment = segments.containing(at) as Intl.SegmentData;
    at = segment.index + segment.segment.length;
    if (segment.isWordLike !== true) continue;
    const from = start + segment.index;
    visit(foldWord(segment.segment), from, from + segment.segment.length);
  }
}

/**
 * Steps of reading a character's words in a script written without spaces: its words go through
 * `Intl.Segmenter`, about 15–20 times the cost of a spaced script's regular expression (0.8 µs a character of
 * Han against 45 ns).
 */
export const UNSPACED_STEPS_PER_CHAR = 16;

/** Steps of `forEachWord(text)`: a step a character, UNSPACED_STEPS_PER_CHAR in an unspaced script. O(text). */
export const wordSteps = (text: string): number =>
  text.length * (UNSPACED_SCRIPT.test(text) ? UNSPACED_STEPS_PER_CHAR : 1);

/**
 * Whether `text` holds a character of a script written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar):
 * `forEachWord`'s mode, which a caller that reads a long text in pieces may decide once for the whole text. O(text).
 */
export const hasUnspacedScript = (text: string): boolean => UNSPACED_SCRIPT.test(text);

/** Overlapping two-character words of a run whose characters start at the first `length` of `starts` and which ends at `end`; a run of one character is one word. */
function visitBigrams(
  text: string,
  starts: readonly number[],
  length: number,
  end: number,
  visit: (word: string, start: number, end: number) => void,
  pairs: PairWords | undefined,
): void {
  const count = Math.max(1, length - 1);
  for (let index = 0; index < count; index++) {
    const start = starts[index] as number;
    const stop = index + 2 < length ? (starts[index + 2] as number) : end;
    visit(
      pairs !== undefined && stop - start === 2 ? pairs.word(text, start) : foldWord(text.slice(start, stop)),
      start,
      stop,
    );
  }
}
