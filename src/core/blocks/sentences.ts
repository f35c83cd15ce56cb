import { type Span, splitBlocks } from "./blocks.js";

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
// The segmenter only breaks after a sentence terminator (Unicode STerm/ATerm) or a paragraph
// separator; a piece whose only terminators end it (followed by nothing but more terminators, closing
// brackets and quotes, then spaces: UAX #29's `Term Close* Sp*`) and that holds no paragraph separator
// is one sentence, and the segmenter (a few microseconds a call) can be skipped.
const SENTENCE_END_INSIDE =
  /[\u2028\u2029\u0085]|[\p{Sentence_Terminal}\u2024\ufe52\uff0e](?![\p{Sentence_Terminal}\u2024\ufe52\uff0e]*[\p{Ps}\p{Pe}\p{Pi}\p{Pf}"']*[^\S\u2028\u2029]*$)/u;

// V8's segmenter slows down more than linearly on long strings (270 ms for one 100,000-character
// line), so a long line is first cut where the segmenter would break anyway: after a sentence end and
// whitespace before a capital letter or digit, and after a CJK full stop.
const LONG_LINE = 1000;
// At most 8 closing quotes and brackets are looked back over: an unbounded `*` in the lookbehind rescanned a
// long run of them from every position (O(n²)).
const SURE_BREAK = /(?<=[.!?]["'”’)\]]{0,8})[ \t]+(?=[\p{Lu}\p{N}])|(?<=[。！？])/gu;

/**
 * Splits a source into sentences: every line on its own (so list items and table rows are sentences),
 * each line split by `Intl.Segmenter`. Sentences are trimmed of whitespace and of leading markdown
 * block markers; a table's separator row is skipped, its header row is not quoted but attached to each
 * data row as `header`. Parts with no letter or digit are skipped.
 */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  for (const block of splitBlocks(text)) {
    if (block.kind === "line") {
      addProse(text, block.line, sentences);
      continue;
    }
    const header = block.header === null ? null : text.slice(block.header.start, block.header.end);
    for (const row of block.rows) {
      const rowText = text.slice(row.start, row.end);
      if (HAS_WORD.test(rowText)) sentences.push({ text: rowText, start: row.start, end: row.end, header });
    }
  }
  return sentences;
}

function addProse(text: string, line: Span, sentences: Sentence[]): void {
  const marker = BLOCK_MARKER.exec(text.slice(line.start, line.end));
  const start = line.start + (marker === null ? 0 : marker[0].length);
  for (const piece of cutLongLine(text, start, line.end)) {
    const pieceText = text.slice(piece.start, piece.end);
    if (!SENTENCE_END_INSIDE.test(pieceText)) {
      addTrimmed(pieceText, piece.start, sentences);
      continue;
    }
    for (const segment of sentenceSegmenter.segment(pieceText)) {
      addTrimmed(segment.segment, piece.start + segment.index, sentences);
    }
  }
}

/** Adds `part` (found at `start`) trimmed, unless it has no letter or digit. */
function addTrimmed(part: string, start: number, sentences: Sentence[]): void {
  const trimmed = part.trim();
  if (!HAS_WORD.test(trimmed)) return;
  const sentenceStart = start + part.length - part.trimStart().length;
  sentences.push({ text: trimmed, start: sentenceStart, end: sentenceStart + trimmed.length, header: null });
}

/** Cuts `[start, end)` into pieces of at most about LONG_LINE characters where a sentence surely ends. */
function cutLongLine(text: string, start: number, end: number): Span[] {
  if (end - start <= LONG_LINE) return [{ start, end }];
  const pieces: Span[] = [];
  const line = text.slice(start, end);
  let pieceStart = 0;
  for (const match of line.matchAll(SURE_BREAK)) {
    if (match.index > pieceStart) pieces.push(...cutAtSpaces(line, start, pieceStart, match.index));
    pieceStart = match.index + match[0].length;
  }
  if (pieceStart < line.length) pieces.push(...cutAtSpaces(line, start, pieceStart, line.length));
  return pieces;
}

/** A last resort for a run without sentence ends: cut at whitespace every LONG_LINE characters or so. */
function cutAtSpaces(line: string, offset: number, start: number, end: number): Span[] {
  const pieces: Span[] = [];
  let pieceStart = start;
  while (end - pieceStart > LONG_LINE) {
    const space = line.lastIndexOf(" ", pieceStart + LONG_LINE);
    let cut = space > pieceStart ? space : pieceStart + LONG_LINE;
    // Never cut between the two halves of a surrogate pair.
    if (/[\ud800-\udbff]/.test(line.charAt(cut - 1))) cut -= 1;
    pieces.push({ start: offset + pieceStart, end: offset + cut });
    pieceStart = cut;
  }
  pieces.push({ start: offset + pieceStart, end: offset + end });
  return pieces;
}
