import { codePointAt, isWhitespaceChar, isWordChar, wordEnd } from "../text/index.js";

/**
 * Strict tokens: each maximal run of word characters (as the boundary checks read them, by code point),
 * each whitespace run, and each other code point alone. A strict match is exactly a run of whole tokens
 * equal to the quote's, a whitespace run equal to any other: the boundary checks ask that a quote starting
 * (ending) with a word character start (end) where a word run does and that no surrogate pair be split,
 * which token edges never do. So many quotes can be found at once over token ids.
 *
 * Ids are given by the quotes of one batch (their alphabet), so the source's tokens need no interning: a
 * source token no quote holds reads as -1, and a source word is looked up only when a quote word may share
 * its hash (`WordIds`).
 */
export interface StrictQuoteTokens {
  /** Each quote's tokens as ids in `[0, alphabetSize)`. */
  patterns: Int32Array[];
  alphabetSize: number;
  /** The id of each word a quote holds, by the word's hash. */
  wordIds: WordIds;
  /** Id of each ASCII code point a quote holds as a token (a whitespace run reads as U+0020), else -1. */
  asciiIds: Int32Array;
  /** The same for every other code point. */
  idByCodePoint: Map<number, number>;
}

/** The tokens of each trimmed quote, as ids of the quotes' own alphabet. O(Σm). */
export function tokenizeStrictQuotes(quotes: readonly string[]): StrictQuoteTokens {
  const alphabet: StrictQuoteTokens = {
    patterns: [],
    alphabetSize: 0,
    wordIds: new WordIds(),
    asciiIds: new Int32Array(128).fill(-1),
    idByCodePoint: new Map(),
  };
  const token: StrictToken = { end: 0, codePoint: 0, hash: 0 };
  for (const quote of quotes) {
    // A token is at least one unit, so the quote's length bounds the count.
    const ids = new Int32Array(quote.length);
    let count = 0;
    for (let start = 0; start < quote.length; start = token.end) {
      readStrictToken(quote, start, token);
      let id = idOf(quote, start, token, alphabet);
      if (id < 0) {
        id = alphabet.alphabetSize;
        alphabet.alphabetSize += 1;
        const { codePoint } = token;
        if (codePoint < 0) {
          alphabet.wordIds.add(quote.slice(start, token.end), token.hash, id);
        } else if (codePoint < 128) {
          alphabet.asciiIds[codePoint] = id;
        } else {
          alphabet.idByCodePoint.set(codePoint, id);
        }
      }
      ids[count] = id;
      count += 1;
    }
    alphabet.patterns.push(ids.slice(0, count));
  }
  return alphabet;
}

/**
 * The source `text` as strict tokens: their ids in the quotes' alphabet (-1 for one no quote holds) and
 * where each starts, with `text.length` after the last. O(n).
 */
export function tokenizeStrictSource(
  text: string,
  quotes: StrictQuoteTokens,
): { ids: Int32Array; starts: Int32Array } {
  const ids = new Int32Array(text.length);
  const starts = new Int32Array(text.length + 1);
  const token: StrictToken = { end: 0, codePoint: 0, hash: 0 };
  let count = 0;
  for (let start = 0; start < text.length; start = token.end) {
    readStrictToken(text, start, token);
    ids[count] = idOf(text, start, token, quotes);
    starts[count] = start;
    count += 1;
  }
  starts[count] = text.length;
  return { ids: ids.subarray(0, count), starts: starts.subarray(0, count + 1) };
}

// The id of the token just read at `start`, or -1 when no quote holds it; a word is looked up only when a
// quote word has its hash.
function idOf(text: string, start: number, token: StrictToken, alphabet: StrictQuoteTokens): number {
  const { codePoint } = token;
  if (codePoint >= 128) return alphabet.idByCodePoint.get(codePoint) ?? -1;
  if (codePoint >= 0) return alphabet.asciiIds[codePoint] as number;
  return alphabet.wordIds.get(text, start, token.end, token.hash);
}

/**
 * Words and their ids: a bit per hash (its low 16 bits) that says whether a word with it may be held, then
 * Maps by word, one for each of 64 shards of the hashes. A batch's quotes hold thousands of distinct words;
 * in one Map (and one Set of hashes) each pass of a claim check grew hash tables of hundreds of kilobytes,
 * which V8 allocates as large objects on fresh pages (on the 2-core benchmark machine, 200,000 page faults,
 * a fifth of the CPU of an eval of 200 cases with 2 MB answers in `npm run bench -- eval-details`). A
 * shard's table stays small; words crafted to share a shard only make that Map larger, each lookup still
 * O(1) expected (the Map hashes strings itself). A source word is sliced and looked up only when its hash's
 * bit is set.
 */
export class WordIds {
  private readonly bits = new Uint32Array(WORD_HASH_BITS / 32);
  private readonly shards: Map<string, number>[] = [];

  /** Adds `word` (whose hash is `hash`) with `id`. */
  add(word: string, hash: number, id: number): void {
    const bit = hash & (WORD_HASH_BITS - 1);
    this.bits[bit >>> 5] = (this.bits[bit >>> 5] as number) | (1 << (bit & 31));
    const shard = hash & (WORD_SHARDS - 1);
    let words = this.shards[shard];
    if (words === undefined) {
      words = new Map();
      this.shards[shard] = words;
    }
    words.set(word, id);
  }

  /** Words in the fullest shard (for tests of the spread). */
  get largestShard(): number {
    return Math.max(0, ...this.shards.map((words) => words?.size ?? 0));
  }

  /** The id of the word `text.slice(start, end)` (whose hash is `hash`), or -1. */
  get(text: string, start: number, end: number, hash: number): number {
    const bit = hash & (WORD_HASH_BITS - 1);
    if (((this.bits[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    return this.shards[hash & (WORD_SHARDS - 1)]?.get(text.slice(start, end)) ?? -1;
  }
}

const WORD_HASH_BITS = 1 << 16;
const WORD_SHARDS = 64;

/** One strict token as read: where it ends; its code point, or -1 for a word run with `hash` of its units. */
interface StrictToken {
  end: number;
  codePoint: number;
  hash: number;
}

const OTHER = 0;
const WORD = 1;
const WHITESPACE = 2;
const ASCII_CLASSES = Uint8Array.from({ length: 128 }, (_, code) =>
  isWhitespaceChar(code) ? WHITESPACE : isWordChar(code) ? WORD : OTHER,
);

/**
 * Reads the strict token of `text` starting at `start` into `token`: a word run (`codePoint` -1, `hash` a
 * hash of its code units), a whitespace run (read as the code point U+0020), or any other code point alone
 * (a lone surrogate too: it is never a word character). Reused records keep a source's pass allocation-free.
 */
function readStrictToken(text: string, start: number, token: StrictToken): void {
  const code = text.charCodeAt(start);
  let charClass: number;
  let codePoint = code;
  if (code < 128) {
    charClass = ASCII_CLASSES[code] as number;
  } else if (isWhitespaceChar(code)) {
    charClass = WHITESPACE;
  } else {
    codePoint = codePointAt(text, start) as number;
    charClass = isWordChar(codePoint) ? WORD : OTHER;
  }
  if (charClass === OTHER) {
    token.end = start + (codePoint > 0xffff ? 2 : 1);
    token.codePoint = codePoint;
    return;
  }
  let index = start + 1;
  if (charClass === WHITESPACE) {
    while (index < text.length && isWhitespaceChar(text.charCodeAt(index))) index += 1;
    token.end = index;
    token.codePoint = 0x20;
    return;
  }
  // A word run (the same code points `wordEnd` reads); its hash lets a source skip most lookups.
  index = wordEnd(text, start);
  let hash = 0;
  for (let unit = start; unit < index; unit += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(unit)) | 0;
  token.end = index;
  token.codePoint = -1;
  token.hash = hash;
}
