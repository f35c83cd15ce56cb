/** A word of a text: its folded form and its `[start, end)` offsets (UTF-16) in that text. */
export interface WordSpan {
  /** Lower-cased, compatibility-decomposed, without Latin/Greek/Cyrillic diacritics: `Größe` → `grosse`. */
  word: string;
  start: number;
  end: number;
}

// Scripts written without spaces between words need a dictionary to find words; ICU has one.
const UNSPACED_SCRIPT =
  /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

// The UAX #29 word rules for spaced scripts: letters, marks and digits, joined by an apostrophe or a
// period between them (`don't`, `U.S`, `4.2`) and by a comma between digits (`1,200.50`).
const SPACED_WORD = /[\p{L}\p{M}\p{N}]+(?:['’.][\p{L}\p{M}\p{N}]+|(?<=\p{N}),\p{N}+)*/gu;

const NON_ASCII = /[\u0080-\uffff]/;
const IDEOGRAPHIC_WORD = /^[\p{sc=Han}\p{sc=Katakana}ー]+$/u;
const DIACRITICS = /[\u0300-\u036f]/g;

const wordSegmenter = new Intl.Segmenter("und", { granularity: "word" });

/** Folds a word for matching: case, compatibility forms (`Ｑ３` → `q3`), diacritics, `ß` → `ss`. */
export function foldWord(word: string): string {
  return word.normalize("NFKD").replace(DIACRITICS, "").toLowerCase().replace(/ß/g, "ss").replace(/’/g, "'");
}

/**
 * Splits `text` into words with their offsets. Text in a script written without spaces goes through
 * `Intl.Segmenter`; there, runs of Han and Katakana are further cut into overlapping two-character
 * words (`従業員数` → 従業, 業員, 員数), the usual way to search Chinese and Japanese, because the
 * dictionary splits the same word differently in different sentences (従業|員 but 従業|員数). Other
 * text goes through a regular expression with the same rules as the segmenter, because V8's word
 * segmenter costs about 2.5 µs a word (45 ms for 100,000 characters) and slows down more than linearly
 * on long strings. Callers pass a sentence or a line, not a whole book.
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
 * whether the text goes through `Intl.Segmenter` (by default, when it holds a script written without spaces):
 * a caller that reads a long text in pieces decides it once for the whole text (`wordsCutAtSpaces`).
 */
export function forEachWord(
  text: string,
  visit: (word: string, start: number, end: number) => void,
  unspaced: boolean = UNSPACED_SCRIPT.test(text),
): void {
  if (unspaced) {
    let run: { start: number; end: number } | null = null;
    for (const segment of wordSegmenter.segment(text)) {
      if (segment.isWordLike !== true) continue;
      const start = segment.index;
      const end = start + segment.segment.length;
      if (!IDEOGRAPHIC_WORD.test(segment.segment)) {
        if (run !== null) visitBigrams(text, run, visit);
        run = null;
        visit(foldWord(segment.segment), start, end);
      } else if (run !== null && run.end === start) {
        run.end = end;
      } else {
        if (run !== null) visitBigrams(text, run, visit);
        run = { start, end };
      }
    }
    if (run !== null) visitBigrams(text, run, visit);
    return;
  }
  // Plain ASCII folds by lower-casing alone, which keeps offsets, so such text is lower-cased once.
  const ascii = !NON_ASCII.test(text);
  const lower = ascii ? text.toLowerCase() : text;
  SPACED_WORD.lastIndex = 0;
  for (let match = SPACED_WORD.exec(text); match !== null; match = SPACED_WORD.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    if (ascii) visit(lower.slice(start, end), start, end);
    else visit(NON_ASCII.test(match[0]) ? foldWord(match[0]) : match[0].toLowerCase(), start, end);
  }
}

/**
 * Whether `forEachWord` reads `text` piece by piece as it reads it whole, when the pieces are cut before a
 * space or a line break: true for text in spaced scripts (its words never hold a space), false for text that
 * goes through `Intl.Segmenter`, whose words depend on the whole text.
 */
export const wordsCutAtSpaces = (text: string): boolean => !UNSPACED_SCRIPT.test(text);

/** Overlapping two-character words of a Han/Katakana run; a one-character run is one word. */
function visitBigrams(
  text: string,
  run: { start: number; end: number },
  visit: (word: string, start: number, end: number) => void,
): void {
  const characters = Array.from(text.slice(run.start, run.end));
  const offsets: number[] = [];
  let offset = run.start;
  for (const character of characters) {
    offsets.push(offset);
    offset += character.length;
  }
  offsets.push(offset);
  const count = Math.max(1, characters.length - 1);
  for (let index = 0; index < count; index++) {
    const start = offsets[index] as number;
    const end = offsets[Math.min(index + 2, characters.length)] as number;
    visit(foldWord(text.slice(start, end)), start, end);
  }
}
