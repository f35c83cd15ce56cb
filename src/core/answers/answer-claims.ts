import { type Sentence, splitSentences } from "../blocks/index.js";
import type { Range } from "../types.js";
import { isChatFraming, isEmphasisOnly } from "./framing.js";
import { findMarkers, type Marker } from "./markers.js";

/**
 * A claim of a plain answer: one sentence, list item or table row, cut into clauses at markers that stand
 * inside it. Offsets are UTF-16 into the answer.
 */
export interface AnswerClaim {
  /** The claim's span in the answer, its markers included. */
  range: Range;
  /** The claim as a person reads it: markers removed, spaces tidied. */
  text: string;
  clauses: Clause[];
  /** A line of a `>` block: the claim is itself a quotation of its source. */
  blockQuote: boolean;
  /**
   * Not a claim, though the splitter made it a sentence: with no marker, a bold lead-in or bold heading line
   * (`**Time limit.**`), or chat framing ("Here's an overview.", "Let me know if …", a question to the reader).
   */
  framing: boolean;
}

/** A part of a claim with the markers that cite it: `A [1] and B [2].` has two. */
export interface Clause {
  range: Range;
  text: string;
  /** The clause's text with markers blanked out, at the clause's offsets: what words and numbers are read from. */
  masked: string;
  markers: Marker[];
}

const HEADING = /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/;
const BLOCK_QUOTE = /^[ \t]{0,3}>/;
const WORD = /[\p{L}\p{N}]/u;
// The answer's text without markers, for display: runs of spaces made one, no space before punctuation. A lone
// space is already right: only longer runs, tabs and no-break spaces are replaced, so prose costs no copy.
const SPACES = /[ \t\u00a0]{2,}|[\t\u00a0]/g;
const SPACE_BEFORE_PUNCTUATION = / (?=[.,;:!?)\]])/g;

/**
 * Splits an answer into claims with the core's sentence splitter, after blanking out its markers (so a
 * marker never splits or joins sentences). Headings, blank lines, footnote definitions, fenced code and a
 * line that only leads into a list (ends with `:`) are not claims. A marker belongs to the sentence it stands
 * in; one after a sentence's end punctuation belongs to that sentence, one at a line's start to the
 * sentence after it. A marker group with words after it in its sentence ends a clause: `A [1] and B [2].`
 * needs A in source 1 and B in source 2; words after the last group join the last clause. O(n).
 */
export function splitAnswerClaims(answer: string): AnswerClaim[] {
  const { markers, hidden } = findMarkers(answer);
  const masked = blankOut(answer, markers, hidden);
  const lines = new LineIndex(masked);
  const sentences = withEmphasisClosed(masked, splitSentences(masked));
  const claims: { sentence: Range; markers: Marker[]; line: number }[] = [];
  const claimOfSentence: number[] = [];
  const sentenceLines = sentences.map((sentence) => lines.lineOf(sentence.start));
  for (const [index, sentence] of sentences.entries()) {
    const line = sentenceLines[index] as number;
    const head = lines.head(line);
    const isLast = sentenceLines[index + 1] !== line;
    const leadIn = isLast && sentence.text.endsWith(":");
    if (HEADING.test(head) || leadIn) {
      claimOfSentence.push(-1);
      continue;
    }
    claimOfSentence.push(claims.length);
    claims.push({ sentence: [sentence.start, sentence.end], markers: [], line });
  }
  // Each marker to its sentence: the last one starting at or before it on its line, else the first after it
  // on its line, else the last one before it.
  let next = 0;
  for (const marker of markers) {
    while (next < sentences.length && (sentences[next] as { start: number }).start <= marker.start) next++;
    const line = lines.lineOf(marker.start);
    let sentence = next - 1;
    if (
      next < sentences.length &&
      sentenceLines[next] === line &&
      (sentence < 0 || sentenceLines[sentence] !== line)
    ) {
      sentence = next;
    }
    const claim = sentence < 0 ? -1 : (claimOfSentence[sentence] as number);
    if (claim >= 0) claims[claim]?.markers.push(marker);
  }
  return claims.map(({ sentence, markers: own }) => buildClaim(masked, lines, sentence, own));
}

const EMPHASIS = ["**", "__"];

/**
 * The sentences with an emphasis that closes after a sentence's end moved back to it: the splitter cuts
 * `**Time limit.** Phones can …` after the full stop, leaving `**` to open the next sentence; the closing
 * `**` belongs to `**Time limit.`, so that a dropped sentence takes its emphasis with it and the answer's
 * text stays valid markdown. O(sentences), each reading a few characters at its ends.
 */
function withEmphasisClosed(text: string, sentences: Sentence[]): Sentence[] {
  const out: Sentence[] = [];
  for (const sentence of sentences) {
    const previous = out[out.length - 1];
    const mark = EMPHASIS.find((candidate) => text.startsWith(candidate, sentence.start));
    if (
      previous === undefined ||
      mark === undefined ||
      !text.startsWith(mark, previous.start) ||
      text.slice(previous.end, sentence.start).includes("\n") ||
      previous.text.indexOf(mark, mark.length) >= 0
    ) {
      out.push(sentence);
      continue;
    }
    const end = sentence.start + mark.length;
    out[out.length - 1] = { ...previous, end, text: text.slice(previous.start, end) };
    let start = end;
    while (start < sentence.end && (text[start] === " " || text[start] === "\t")) start++;
    if (WORD.test(text.slice(start, sentence.end))) {
      out.push({ ...sentence, start, text: text.slice(start, sentence.end) });
    }
  }
  return out;
}

function buildClaim(masked: string, lines: LineIndex, sentence: Range, markers: Marker[]): AnswerClaim {
  const first = markers[0];
  const last = markers.at(-1);
  const start = first === undefined ? sentence[0] : Math.min(sentence[0], first.start);
  const end = last === undefined ? sentence[1] : Math.max(sentence[1], last.end);
  const lastWordEnd = lastWordEndIn(masked, sentence[0], sentence[1]);
  const clauses: Clause[] = [];
  let clauseStart = start;
  let clauseMarkers: Marker[] = [];
  // Whether the clause so far holds a word, read once left to right: every character is read at most once.
  let scanned = start;
  let wordsBefore = false;
  for (const [index, marker] of markers.entries()) {
    clauseMarkers.push(marker);
    const following = markers[index + 1];
    for (; !wordsBefore && scanned < marker.start; scanned++) wordsBefore = isWord(masked, scanned);
    scanned = Math.max(scanned, marker.end);
    // Markers with only spaces or commas between them are one group; a group ends a clause when words of
    // the sentence stand both before and after it, and another marker follows.
    if (following === undefined || !wordsBefore || marker.end >= lastWordEnd) continue;
    if (!hasWordBetween(masked, marker.end, following.start)) continue;
    clauses.push(clauseOf(masked, clauseStart, marker.end, clauseMarkers));
    clauseStart = marker.end;
    clauseMarkers = [];
    wordsBefore = false;
  }
  clauses.push(clauseOf(masked, clauseStart, end, clauseMarkers));
  const head = lines.head(lines.lineOf(sentence[0]));
  // One clause is the whole claim: its text is already tidied.
  const text = clauses.length === 1 ? (clauses[0] as Clause).text : tidy(masked.slice(start, end));
  return {
    range: [start, end],
    text,
    clauses,
    blockQuote: BLOCK_QUOTE.test(head),
    framing:
      markers.length === 0 && (isEmphasisOnly(masked.slice(sentence[0], sentence[1])) || isChatFraming(text)),
  };
}

const isWord = (text: string, index: number): boolean => WORD.test(text.charAt(index));

function hasWordBetween(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (isWord(text, index)) return true;
  return false;
}

// The end of the last letter or digit in `[from, to)`, or `from`.
function lastWordEndIn(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) if (isWord(text, index)) return index + 1;
  return from;
}

function clauseOf(masked: string, start: number, end: number, markers: Marker[]): Clause {
  const text = masked.slice(start, end);
  return { range: [start, end], text: tidy(text), masked: text, markers };
}

/** The text a person reads: spaces made one, none before punctuation, trimmed. */
export function tidy(text: string): string {
  return text.replace(SPACES, " ").replace(SPACE_BEFORE_PUNCTUATION, "").trim();
}

// The answer with each marker and hidden span replaced by spaces (line breaks kept): offsets stay the same.
function blankOut(answer: string, markers: readonly Marker[], hidden: readonly Range[]): string {
  const spans: Range[] = [...markers.map((marker): Range => [marker.start, marker.end]), ...hidden];
  spans.sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    const span = answer.slice(start, end);
    parts.push(
      answer.slice(at, start),
      span.includes("\n") ? span.replace(/[^\n]/g, " ") : " ".repeat(end - start),
    );
    at = end;
  }
  parts.push(answer.slice(at));
  return parts.join("");
}

/** Line numbers of offsets, and the start of each line's text. */
class LineIndex {
  private readonly starts: number[] = [0];

  constructor(private readonly content: string) {
    for (let at = content.indexOf("\n"); at >= 0; at = content.indexOf("\n", at + 1))
      this.starts.push(at + 1);
  }

  /** The line of `offset`: O(log lines). */
  lineOf(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The first 16 characters of a line: enough to tell a heading or a block quote. */
  head(line: number): string {
    const start = this.starts[line] as number;
    const head = this.content.slice(start, start + 16);
    const newline = head.indexOf("\n");
    return newline < 0 ? head : head.slice(0, newline);
  }
}
