import { isLetterCode, isWordCode } from "./characters.js";
import type { Mentions } from "./mention.js";
import { COPULAS, POST_MODIFIERS, RELATIVES } from "./word-lists.js";

// How many words may stand between the opening `the` and the subject's head (`the week 6 attendance`),
// and how many mentions at the claim's start are read: both constants, so finding the subject is constant
// time.
const MAX_WORDS_BEFORE_HEAD = 3;
const MAX_HEAD_MENTIONS = 8;

// The word (letters) that starts at `from` after spaces, with where it ends; at most `limit` letters read.
function wordAt(text: string, from: number, limit: number): { word: string; end: number } {
  let start = from;
  while (start < text.length && text.charCodeAt(start) === 32) start += 1;
  let end = start;
  while (end < text.length && end - start <= limit && isLetterCode(text.charCodeAt(end))) end += 1;
  return { word: text.slice(start, end), end };
}

// The number of words (runs of letters and digits) in `text[from, to)`, counting no further than `most + 1`.
function wordsBetween(text: string, from: number, to: number, most: number): number {
  let words = 0;
  let inWord = false;
  for (let index = from; index < to; index += 1) {
    const word = isWordCode(text.charCodeAt(index));
    if (word && !inWord) {
      words += 1;
      if (words > most) return words;
    }
    inWord = word;
  }
  return words;
}

/**
 * The index (in `mentions`) of the claim's subject column, or -1: a claim that opens with `the`, names a
 * column within its first few words (`the serial number`, `the week 6 attendance`) and goes on with a
 * modifier (`of`, `for`, `in`, `when`, `with`, …) has that column as its subject. The column of row labels
 * (column 0) is never a subject here: rule 7 keeps it for naming rows. Reads a constant number of
 * mentions and characters.
 */
export function subjectMention(folded: string, mentions: Mentions): number {
  let opening = 0;
  while (opening < folded.length && folded.charCodeAt(opening) === 32) opening += 1;
  if (!folded.startsWith("the ", opening)) return -1;
  const afterThe = opening + 4;
  for (let index = 0; index < mentions.length && index < MAX_HEAD_MENTIONS; index += 1) {
    const start = mentions.start(index);
    const end = mentions.end(index);
    if (start < afterThe) continue;
    // Only the first words after `the` are read: a later mention is no head of the opening phrase.
    if (wordsBetween(folded, afterThe, start, MAX_WORDS_BEFORE_HEAD) > MAX_WORDS_BEFORE_HEAD) break;
    const columns = mentions.columns(index);
    if (columns.length === 1 && columns[0] === 0) continue;
    if (isWordCode(folded.charCodeAt(end))) continue;
    // The modifier may follow one more noun of the head (`the 2nd leg score for`).
    const next = wordAt(folded, end, 12);
    if (POST_MODIFIERS.has(next.word)) return index;
    if (next.word !== "" && !COPULAS.has(next.word) && POST_MODIFIERS.has(wordAt(folded, next.end, 8).word))
      return index;
  }
  return -1;
}

// Signs of a currency that may stand between a copula and its number (`is $ 36,728`).
function isCurrencySign(code: number): boolean {
  return code === 36 || code === 0x20ac || code === 0xa3;
}

/**
 * True when the unit at `[start, end)` is stated by the claim's main copula (`is`, `was`, `were`, `are`,
 * `had`, `has`) right before it: that copula does not follow a column mention ending right before it
 * (`score was 3 - 1` states the score's value, not the subject's) nor a relative pronoun or `there` (`who has 44
 * pf`, `there were 1,500`), and no column mention starts right after the unit (`has 44 pf`). `claimsCopula` says whether a column
 * mention ending at a position states the copula's number; `mentionStarts` holds where column mentions
 * start. Reads a few characters.
 */
export function statedByCopula(
  folded: string,
  start: number,
  end: number,
  claimsCopula: (mentionEnd: number) => boolean,
  mentionStarts: ReadonlySet<number>,
): boolean {
  let after = end;
  while (after < folded.length && folded.charCodeAt(after) === 32) after += 1;
  if (mentionStarts.has(after)) return false;
  let to = start;
  while (to > 0 && (folded.charCodeAt(to - 1) === 32 || isCurrencySign(folded.charCodeAt(to - 1)))) to -= 1;
  let from = to;
  while (from > 0 && to - from <= 4 && isLetterCode(folded.charCodeAt(from - 1))) from -= 1;
  if (from > 0 && isWordCode(folded.charCodeAt(from - 1))) return false;
  if (!COPULAS.has(folded.slice(from, to))) return false;
  let before = from;
  while (before > 0 && folded.charCodeAt(before - 1) === 32) before -= 1;
  if (claimsCopula(before)) return false;
  let pronoun = before;
  while (pronoun > 0 && before - pronoun <= 6 && isLetterCode(folded.charCodeAt(pronoun - 1))) pronoun -= 1;
  return !RELATIVES.has(folded.slice(pronoun, before));
}
