import { PAUSE, PAUSE_EVERY, type Pause } from "../pause.js";
import type { StepCounter } from "../step-counter.js";
import { CharacterClass, splitsSurrogatePair } from "../text/index.js";
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
/** Characters at the head of a line that `BLOCK_MARKER` is tried on first. */
const MARKER_HEAD = 256;
const BLOCK_MARKER = /^(?:#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,3}[.)][ \t]+|>[ \t]*)+/;
const HAS_WORD = /[\p{L}\p{N}]/u;
// The segmenter only breaks after a sentence terminator (Unicode STerm/ATerm) or a paragraph separator.
const TERMINATOR = /[\p{Sentence_Terminal}\u2024\ufe52\uff0e]/u;
// Read a table look-up a character: the property pattern costs a search of its ranges a character.
const TERMINATOR_OR_SEPARATOR = new CharacterClass(
  /^[\p{Sentence_Terminal}\u2024\ufe52\uff0e\u2028\u2029\u0085]$/u,
);
const CLOSE = /[\p{Ps}\p{Pe}\p{Pi}\p{Pf}"']/u;
const SPACE = /[^\S\u2028\u2029]/u;

// V8's segmenter slows down more than linearly on long strings (270 ms for one 100,000-character
// line), so a long line is first cut where the segmenter would break anyway: after a sentence end and
// whitespace before a capital letter or digit, and after a CJK full stop. Every piece the segmenter reads
// is at most LONG_LINE characters long, so its cost per character is bounded.
export const LONG_LINE = 1000;
// Where a sentence surely ends (`cutLongLine`): `(?<=[.!?]["'”’)\]]{0,8})[ \t]+(?=[\p{Lu}\p{N}])|(?<=[。！？])`,
// read by hand. At most 8 closing quotes and brackets are looked back over (an unbounded run was read again
// from every position).
const CAPITAL_OR_DIGIT = /^[\p{Lu}\p{N}]/u;

/**
 * Splits a source into sentences: every line on its own (so list items and table rows are sentences),
 * each line split by `Intl.Segmenter`. Sentences are trimmed of whitespace and of leading markdown
 * block markers; a table's separator row is skipped, its header row is not quoted but attached to each
 * data row as `header`. Parts with no letter or digit are skipped. O(n) in the worst case (`sentencesOf`).
 */
export function splitSentences(text: string, counter?: StepCounter): Sentence[] {
  const sentences: Sentence[] = [];
  for (const sentence of sentencesOf(text, counter)) if (sentence !== PAUSE) sentences.push(sentence);
  return sentences;
}

/**
 * `splitSentences` one sentence at a time, so a caller can stop early, keep only what it needs, or pause
 * between sentences (and at each `PAUSE`, yielded after a run of text that made none). Every stage reads
 * each character a bounded number of times; with `counter`, the characters each stage reads are added to it.
 */
export function* sentencesOf(text: string, counter?: StepCounter): Generator<Sentence | Pause> {
  let header: string | null = null;
  // Parts read since the last sentence or pause.
  let quiet = 0;
  for (const part of blockParts(text, counter)) {
    if (part === PAUSE) {
      quiet = 0;
      yield PAUSE;
      continue;
    }
    if (part.kind === "line") {
      for (const sentence of proseSentences(text, part.line, counter)) {
        quiet = 0;
        yield sentence;
      }
    } else if (part.kind === "table") {
      header = part.header === null ? null : text.slice(part.header.start, part.header.end);
    } else {
      const { start, end } = part.row;
      const rowText = text.slice(start, end);
      if (counter !== undefined) counter.steps += end - start;
      if (HAS_WORD.test(rowText)) {
        quiet = 0;
        yield { text: rowText, start, end, header };
      }
    }
    if (++quiet >= PAUSE_EVERY) {
      quiet = 0;
      yield PAUSE;
    }
  }
}

function* proseSentences(text: string, line: Span, counter?: StepCounter): Generator<Sentence | Pause> {
  // The block marker is looked for in the line's head: a long line is not copied to find it. A marker that
  // runs to within a unit's length of the head's end may go on past it: then the whole line is read.
  const head = text.slice(line.start, Math.min(line.end, line.start + MARKER_HEAD));
  let marker = BLOCK_MARKER.exec(head);
  if (marker !== null && line.end - line.start > head.length && marker[0].length >= head.length - 8)
    marker = BLOCK_MARKER.exec(text.slice(line.start, line.end));
  if (counter !== undefined) counter.steps += marker === null ? head.length : line.end - line.start;
  const start = line.start + (marker === null ? 0 : marker[0].length);
  let quiet = 0;
  // A short line is its one piece (as `cutLongLine` gives it), without a generator of its own.
  const pieces =
    line.end - start <= LONG_LINE ? [{ start, end: line.end }] : cutLongLine(text, start, line.end, counter);
  for (const piece of pieces) {
    const pieceText = text.slice(piece.start, piece.end);
    // The word check, the end check and the segmenter each read the piece once. A piece without a letter or
    // digit holds no sentence, however the segmenter would cut it.
    if (counter !== undefined) counter.steps += 3 * pieceText.length;
    if (!HAS_WORD.test(pieceText)) {
      if (++quiet >= PAUSE_EVERY) {
        quiet = 0;
        yield PAUSE;
      }
      continue;
    }
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
    const width = splitsSurrogatePair(piece, tail - 1) ? 2 : 1;
    const kind = tailClass(piece, tail - width, tail);
    if (stage === 0 && kind === SPACE_CLASS) {
      tail -= width;
      continue;
    }
    if (stage <= 1 && kind === CLOSE_CLASS) {
      stage = 1;
      tail -= width;
      continue;
    }
    if (kind === TERMINATOR_CLASS) {
      stage = 2;
      tail -= width;
      continue;
    }
    break;
  }
  // The first terminator or separator: inside when it stands before the tail (or is a separator in it).
  const first = TERMINATOR_OR_SEPARATOR.search(piece);
  if (first < 0) return false;
  if (first < tail) return true;
  for (let at = first; at < piece.length; at++) {
    const code = piece.charCodeAt(at);
    if (code === 0x2028 || code === 0x2029 || code === 0x85) return true;
  }
  return false;
}

const SPACE_CLASS = 0;
const CLOSE_CLASS = 1;
const TERMINATOR_CLASS = 2;
const OTHER_CLASS = 3;

// The class of the code point `piece[from, to)` in UAX #29's `Term* Close* Sp*`: ASCII by its code.
function tailClass(piece: string, from: number, to: number): number {
  const code = piece.charCodeAt(from);
  if (code < 0x80) {
    if (code === 32 || (code >= 9 && code <= 13)) return SPACE_CLASS;
    if (code === 33 || code === 46 || code === 63) return TERMINATOR_CLASS;
    if (code === 34 || code === 39 || code === 40 || code === 41 || code === 91 || code === 93)
      return CLOSE_CLASS;
    return code === 123 || code === 125 ? CLOSE_CLASS : OTHER_CLASS;
  }
  const char = piece.slice(from, to);
  if (SPACE.test(char)) return SPACE_CLASS;
  if (CLOSE.test(char)) return CLOSE_CLASS;
  return TERMINATOR.test(char) ? TERMINATOR_CLASS : OTHER_CLASS;
}

/** `part` (found at `start`) trimmed as a sentence, or null when it has no letter or digit. */
function trimmed(part: string, start: number, counter?: StepCounter): Sentence | null {
  if (counter !== undefined) counter.steps += part.length;
  const text = part.trim();
  if (!HAS_WORD.test(text)) return null;
  const sentenceStart = start + part.length - part.trimStart().length;
  return { text, start: sentenceStart, end: sentenceStart + text.length, header: null };
}

/** Cuts `[start, end)`, one at a time, into pieces of at most LONG_LINE characters, where a sentence surely ends if it can. */
function* cutLongLine(text: string, start: number, end: number, counter?: StepCounter): Generator<Span> {
  if (end - start <= LONG_LINE) {
    yield { start, end };
    return;
  }
  // Two steps a character passed (the break search, the piece), counted before each piece is given: a long
  // run without a sure break is cut at spaces as it goes (the same pieces as cutting it whole), so no
  // stretch of the line is passed without giving pieces.
  let counted = start;
  const count = (to: number): void => {
    if (counter !== undefined) counter.steps += 2 * (to - counted);
    counted = to;
  };
  let pieceStart = start;
  for (let at = start; at < end; ) {
    const spaces = sureBreakAt(text, start, at, end);
    if (spaces < 0) {
      at++;
      // Where no sure break can stand (no space or tab there, no CJK full stop before) is passed in a tight
      // loop, up to where the run is cut at spaces: the same places as asking `sureBreakAt` at each.
      const runEnd = Math.min(end, pieceStart + 2 * LONG_LINE + 1);
      while (at < runEnd && !mayBreakAt(text, at)) at++;
      if (at - pieceStart > 2 * LONG_LINE) {
        count(at);
        pieceStart = yield* cutAtSpaces(text, pieceStart, at, counter, false);
      }
      continue;
    }
    count(at);
    if (at - pieceStart > LONG_LINE) yield* cutAtSpaces(text, pieceStart, at, counter);
    else if (at > pieceStart) yield { start: pieceStart, end: at };
    pieceStart = at + spaces;
    // After a break of no width, the next one is looked for a character on (a code point: a pair is one).
    at = spaces > 0 ? pieceStart : at + (splitsSurrogatePair(text, at + 1) ? 2 : 1);
  }
  count(end);
  if (pieceStart < end) yield* cutAtSpaces(text, pieceStart, end, counter);
}

/**
 * SURE_BREAK at `at` in the line `text[lineStart, end)`, read by hand (a regex search made a match object for
 * each of a run of CJK full stops): the length of the spaces and tabs that stand there after a sentence
 * end and before a capital or digit, 0 for the place right after a CJK full stop, else -1.
 */
function sureBreakAt(text: string, lineStart: number, at: number, end: number): number {
  if (at === lineStart) return -1;
  const code = text.charCodeAt(at);
  if ((code === 32 || code === 9) && endsSentenceBefore(text, lineStart, at)) {
    let after = at;
    while (after < end && (text.charCodeAt(after) === 32 || text.charCodeAt(after) === 9)) after++;
    if (after < end && CAPITAL_OR_DIGIT.test(text.slice(after, Math.min(after + 2, end)))) return after - at;
  }
  const before = text.charCodeAt(at - 1);
  return before === 0x3002 || before === 0xff01 || before === 0xff1f ? 0 : -1;
}

// Whether `sureBreakAt` may find a break at `at` (past the line's start): a space or tab there, or a CJK full
// stop right before.
function mayBreakAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code === 32 || code === 9) return true;
  const before = text.charCodeAt(at - 1);
  return before === 0x3002 || before === 0xff01 || before === 0xff1f;
}

// `(?<=[.!?]["'”’)\]]{0,8})` before `at`: a full stop, `!` or `?`, then at most 8 closing quotes and brackets.
function endsSentenceBefore(text: string, lineStart: number, at: number): boolean {
  for (let back = at - 1; back >= lineStart && back >= at - 9; back--) {
    const code = text.charCodeAt(back);
    if (code === 46 || code === 33 || code === 63) return true;
    if (!(code === 34 || code === 39 || code === 0x201d || code === 0x2019 || code === 41 || code === 93))
      return false;
  }
  return false;
}

/**
 * A last resort for a run without sentence ends: cut at the last whitespace within LONG_LINE characters,
 * else after LONG_LINE characters. The search for the space looks back at most LONG_LINE characters, and
 * never over a character the previous search passed without finding a space: each is read at most twice.
 * Returns where the last piece starts.
 */
function* cutAtSpaces(
  text: string,
  start: number,
  end: number,
  counter?: StepCounter,
  withRest = true,
): Generator<Span, number> {
  let pieceStart = start;
  while (end - pieceStart > LONG_LINE) {
    let space = pieceStart + LONG_LINE;
    while (space > pieceStart && text.charCodeAt(space) !== 32) space--;
    if (counter !== undefined) counter.steps += pieceStart + LONG_LINE - space + 1;
    let cut = space > pieceStart ? space : pieceStart + LONG_LINE;
    // Never cut between the two halves of a surrogate pair (a lone high surrogate before a space is no pair:
    // stepping back over it cut nothing and looped for ever).
    if (splitsSurrogatePair(text, cut)) cut -= 1;
    yield { start: pieceStart, end: cut };
    pieceStart = cut;
  }
  // Without `withRest`, the rest (at most LONG_LINE characters) is left to the caller: where it starts.
  if (withRest) yield { start: pieceStart, end };
  return pieceStart;
}
