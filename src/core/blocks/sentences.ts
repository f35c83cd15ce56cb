import type { StepCounter } from "../step-counter.js";
import { blockParts, type Span } from "./blocks.js";

/** A quotable sentence of a source. Invariant: `text === sourceText.slice(start, end)`. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
  /**
   * For a data row of a markdown table, the text of the table's header row: it tells what the row's
   * cells mean, so it helps rank the row, but it is not part of the quote. Null otherwise.
   */
  header: string | null;
}

const sentenceSegmenter = new Intl.Segmenter("und", { granularity: "sentence" });

// Markdown block markers in front of a line's text: headings, bullets, task boxes, numbers, quotes.
const BLOCK_MARKER = /^(?:#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,3}[.)][ \t]+|>[ \t]*)+/;
const HAS_WORD = /[\p{L}\p{N}]/u;
// The segmenter only breaks after a sentence terminator (Unicode STerm/ATerm) or a paragraph separator.
const TERMINATOR = /[\p{Sentence_Terminal}\u2024\ufe52\uff0e]/u;
const TERMINATOR_OR_SEPARATOR = /[\p{Sentence_Terminal}\u2024\ufe52\uff0e\u2028\u2029\u0085]/u;
const CLOSE = /[\p{Ps}\p{Pe}\p{Pi}\p{Pf}"']/u;
const SPACE = /[^\S\u2028\u2029]/u;

// V8's segmenter slows down more than linearly on long strings (270 ms for one 100,000-character
// line), so a long line is first cut where the segmenter would break anyway: after a sentence end and
// whitespace before a capital letter or digit, and after a CJK full stop. Every piece the segmenter reads
// is at most LONG_LINE characters long, so its cost per character is bounded.
export const LONG_LINE = 1000;
// At most 8 closing quotes and brackets are looked back over: an unbounded `*` in the lookbehind rescanned a
// long run of them from every position (O(n²)).
const SURE_BREAK = /(?<=[.!?]["'”’)\]]{0,8})[ \t]+(?=[\p{Lu}\p{N}])|(?<=[。！？])/gu;

/**
 * Splits a source into sentences: every line on its own (so list items and table rows are sentences),
 * each line split by `Intl.Segmenter`. Sentences are trimmed of whitespace and of leading markdown
 * block markers; a table's separator row is skipped, its header row is not quoted but attached to each
 * data row as `header`. Parts with no letter or digit are skipped. O(n) in the worst case (`sentencesOf`).
 */
export function splitSentences(text: string, counter?: StepCounter): Sentence[] {
  return [...sentencesOf(text, counter)];
}

/**
 * `splitSentences` one sentence at a time, so a caller can stop early, keep only what it needs, or pause
 * between sentences. Every stage reads each character a bounded number of times; with `counter`, the
 * characters each stage reads are added to it.
 */
export function* sentencesOf(text: string, counter?: StepCounter): Generator<Sentence> {
  let header: string | null = null;
  for (const part of blockParts(text, counter)) {
    if (part.kind === "line") yield* proseSentences(text, part.line, counter);
    else if (part.kind === "table") {
      header = part.header === null ? null : text.slice(part.header.start, part.header.end);
    } else {
      const { start, end } = part.row;
      const rowText = text.slice(start, end);
      if (counter !== undefined) counter.steps += end - start;
      if (HAS_WORD.test(rowText)) yield { text: rowText, start, end, header };
    }
  }
}

function* proseSentences(text: string, line: Span, counter?: StepCounter): Generator<Sentence> {
  const lineText = text.slice(line.start, line.end);
  const marker = BLOCK_MARKER.exec(lineText);
  if (counter !== undefined) counter.steps += lineText.length;
  const start = line.start + (marker === null ? 0 : marker[0].length);
  for (const piece of cutLongLine(text, start, line.end, counter)) {
    const pieceText = text.slice(piece.start, piece.end);
    // The end check and the segmenter each read the piece once.
    if (counter !== undefined) counter.steps += 2 * pieceText.length;
    if (!hasSentenceEndInside(pieceText)) {
      const sentence = trimmed(pieceText, piece.start, counter);
      if (sentence !== null) yield sentence;
      continue;
    }
    for (const segment of sentenceSegmenter.segment(pieceText)) {
      const sentence = trimmed(segment.segment, piece.start + segment.index, counter);
      if (sentence !== null) yield sentence;
    }
  }
}

/**
 * Whether the segmenter could break `piece` before its end: it holds a paragraph separator, or a terminator
 * followed by more than UAX #29's `Term* Close* Sp*` up to its end. Then the segmenter (a few microseconds
 * a call) must run; else the piece is one sentence. Two linear scans: the trailing `Term* Close* Sp*` from
 * the end, then a search for a terminator before it.
 */
export function hasSentenceEndInside(piece: string): boolean {
  let tail = piece.length;
  let stage = 0;
  while (tail > 0) {
    // A code point that ends before `tail`: a low surrogate with its high one before it is read as one.
    const low = piece.charCodeAt(tail - 1);
    const width = tail >= 2 && isLowSurrogate(low) && isHighSurrogate(piece.charCodeAt(tail - 2)) ? 2 : 1;
    const char = piece.slice(tail - width, tail);
    if (stage === 0 && SPACE.test(char)) {
      tail -= width;
      continue;
    }
    if (stage <= 1 && CLOSE.test(char)) {
      stage = 1;
      tail -= width;
      continue;
    }
    if (TERMINATOR.test(char)) {
      stage = 2;
      tail -= width;
      continue;
    }
    break;
  }
  // The first terminator or separator: inside when it stands before the tail (or is a separator in it).
  const first = piece.search(TERMINATOR_OR_SEPARATOR);
  if (first < 0) return false;
  if (first < tail) return true;
  for (let at = first; at < piece.length; at++) {
    const code = piece.charCodeAt(at);
    if (code === 0x2028 || code === 0x2029 || code === 0x85) return true;
  }
  return false;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** `part` (found at `start`) trimmed as a sentence, or null when it has no letter or digit. */
function trimmed(part: string, start: number, counter?: StepCounter): Sentence | null {
  if (counter !== undefined) counter.steps += part.length;
  const text = part.trim();
  if (!HAS_WORD.test(text)) return null;
  const sentenceStart = start + part.length - part.trimStart().length;
  return { text, start: sentenceStart, end: sentenceStart + text.length, header: null };
}

/** Cuts `[start, end)` into pieces of at most LONG_LINE characters, where a sentence surely ends if it can. */
function cutLongLine(text: string, start: number, end: number, counter?: StepCounter): Span[] {
  if (end - start <= LONG_LINE) return [{ start, end }];
  const pieces: Span[] = [];
  const line = text.slice(start, end);
  if (counter !== undefined) counter.steps += 2 * line.length;
  let pieceStart = 0;
  for (const match of line.matchAll(SURE_BREAK)) {
    if (match.index > pieceStart) cutAtSpaces(line, start, pieceStart, match.index, pieces, counter);
    pieceStart = match.index + match[0].length;
  }
  if (pieceStart < line.length) cutAtSpaces(line, start, pieceStart, line.length, pieces, counter);
  return pieces;
}

/**
 * A last resort for a run without sentence ends: cut at the last whitespace within LONG_LINE characters,
 * else after LONG_LINE characters. The search for the space looks back at most LONG_LINE characters, and
 * never over a character the previous search passed without finding a space: each is read at most twice.
 */
function cutAtSpaces(
  line: string,
  offset: number,
  start: number,
  end: number,
  pieces: Span[],
  counter?: StepCounter,
): void {
  let pieceStart = start;
  while (end - pieceStart > LONG_LINE) {
    let space = pieceStart + LONG_LINE;
    while (space > pieceStart && line.charCodeAt(space) !== 32) space--;
    if (counter !== undefined) counter.steps += pieceStart + LONG_LINE - space + 1;
    let cut = space > pieceStart ? space : pieceStart + LONG_LINE;
    // Never cut between the two halves of a surrogate pair (a lone high surrogate before a space is no pair:
    // stepping back over it cut nothing and looped for ever).
    if (isHighSurrogate(line.charCodeAt(cut - 1)) && isLowSurrogate(line.charCodeAt(cut))) cut -= 1;
    pieces.push({ start: offset + pieceStart, end: offset + cut });
    pieceStart = cut;
  }
  pieces.push({ start: offset + pieceStart, end: offset + end });
}
