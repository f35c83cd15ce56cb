import { isWhitespaceChar, isWordChar, wordEnd } from "../text/index.js";

/**
 * Strict tokens: each maximal run of word characters (as the boundary checks read them, by code point),
 * each whitespace run, and each other code point alone. A strict match is exactly a run of whole tokens
 * equal to the quote's, a whitespace run equal to any other: the boundary checks ask that a quote starting
 * (ending) with a word character start (end) where a word run does and that no surrogate pair be split,
 * which token edges never do. So many quotes can be found at once over token ids.
 *
 * Ids are given by the quotes of one batch (their alphabet), so the source's tokens need no interning: a
 * source token no quote holds reads as -1, and a source word is looked up only when its hash is a quote
 * word's.
 */
export interface StrictQuoteTokens {
  /** Each quote's tokens as ids in `[0, alphabetSize)`. */
  patterns: Int32Array[];
  alphabetSize: number;
  idByWord: Map<string, number>;
  wordHashes: Set<number>;
  /** Code point (a whitespace run reads as U+0020) to id. */
  idByCodePoint: Map<number, number>;
}

/** The tokens of each trimmed quote, as ids of the quotes' own alphabet. O(Σm). */
export function tokenizeStrictQuotes(quotes: readonly string[]): StrictQuoteTokens {
  const idByWord = new Map<string, number>();
  const wordHashes = new Set<number>();
  const idByCodePoint = new Map<number, number>();
  const token: StrictToken = { end: 0, codePoint: 0, hash: 0 };
  const patterns = quotes.map((quote) => {
    const ids: number[] = [];
    for (let start = 0; start < quote.length; start = token.end) {
      readStrictToken(quote, start, token);
      const word = token.codePoint < 0;
      const key = word ? quote.slice(start, token.end) : token.codePoint;
      const table = (word ? idByWord : idByCodePoint) as Map<string | number, number>;
      let id = table.get(key);
      if (id === undefined) {
        id = idByWord.size + idByCodePoint.size;
        table.set(key, id);
        if (word) wordHashes.add(token.hash);
      }
      ids.push(id);
    }
    return Int32Array.from(ids);
  });
  const alphabetSize = idByWord.size + idByCodePoint.size;
  return { patterns, alphabetSize, idByWord, wordHashes, idByCodePoint };
}

/**
 * The source `text` as strict tokens: their ids in the quotes' alphabet (-1 for one no quote holds) and
 * where each starts, with `text.length` after the last. O(n).
 */
export function tokenizeStrictSource(
  text: string,
  quotes: StrictQuoteTokens,
): { ids: Int32Array; starts: Int32Array } {
  const { idByWord, wordHashes, idByCodePoint } = quotes;
  // ASCII punctuation and spaces, the most frequent tokens, by table.
  const asciiIds = new Int32Array(128).fill(-1);
  for (const [codePoint, id] of idByCodePoint) if (codePoint < 128) asciiIds[codePoint] = id;
  const ids = new Int32Array(text.length);
  const starts = new Int32Array(text.length + 1);
  const token: StrictToken = { end: 0, codePoint: 0, hash: 0 };
  let count = 0;
  for (let start = 0; start < text.length; start = token.end) {
    readStrictToken(text, start, token);
    const { codePoint } = token;
    let id: number | undefined = -1;
    if (codePoint >= 128) id = idByCodePoint.get(codePoint);
    else if (codePoint >= 0) id = asciiIds[codePoint];
    else if (wordHashes.has(token.hash)) id = idByWord.get(text.slice(start, token.end));
    ids[count] = id ?? -1;
    starts[count] = start;
    count += 1;
  }
  starts[count] = text.length;
  return { ids: ids.subarray(0, count), starts: starts.subarray(0, count + 1) };
}

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
    codePoint = text.codePointAt(start) as number;
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
