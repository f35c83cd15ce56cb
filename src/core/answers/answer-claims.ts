import { type Sentence, sentencesOf } from "../blocks/index.js";
import { PAUSE, PAUSE_EVERY, type Pause } from "../pause.js";
import type { StepCounter } from "../step-counter.js";
import { forEachWord } from "../text/index.js";
import type { Range } from "../types.js";
import { isChatFraming, isEmphasisOnly } from "./framing.js";
import { type AnswerMarkers, findMarkers, type Marker } from "./markers.js";
import { contentTerm } from "./support.js";

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

/**
 * Splits an answer into claims with the core's sentence splitter, after blanking out its markers (so a
 * marker never splits or joins sentences). Headings, blank lines, footnote definitions, fenced code and a
 * line that only leads into a list (ends with `:`) are not claims. A marker belongs to the sentence it stands
 * in; one after a sentence's end punctuation belongs to that sentence, one at a line's start to the
 * sentence after it. A marker group with words after it in its sentence ends a clause: `A [1] and B [2].`
 * needs A in source 1 and B in source 2; words after the last group join the last clause. O(n).
 */
export function splitAnswerClaims(answer: string): AnswerClaim[] {
  const claims: AnswerClaim[] = [];
  for (const claim of answerClaims(answer, findMarkers(answer))) if (claim !== PAUSE) claims.push(claim);
  return claims;
}

/**
 * `splitAnswerClaims` one claim at a time, given the answer's markers (`findMarkers`): a caller may count the
 * claims as they come and stop at a cap, so an answer of too many costs the work and memory of the cap, not
 * of the answer, and pause between claims and at each `PAUSE` (after a run of text that made none). With `counter`, every stage's characters read (masking, sentences, lines, clauses).
 */
export function* answerClaims(
  answer: string,
  { markers, hidden }: AnswerMarkers,
  counter?: StepCounter,
): Generator<AnswerClaim | Pause> {
  const masked = yield* blankOut(answer, markers, hidden, counter);
  const sentenceLines = new LineCursor(masked, counter);
  const markerLines = new LineCursor(masked, counter);
  const sentences = withEmphasisClosed(masked, sentencesOf(masked, counter));
  // The sentence being finished (its line, whether it is a claim, its markers), and the markers not yet given.
  let current: { sentence: Sentence; line: number; head: string; markers: Marker[] } | undefined;
  let nextMarker = 0;
  // Sentences read since the last claim or pause (headings are not claims).
  let quiet = 0;
  // The next sentence (or a pause of the splitter, passed on by a loop at each call: a delegated generator, one
  // object a sentence, made the splitting slower).
  const nextSentence = (): Sentence | Pause | undefined => {
    const next = sentences.next();
    if (next.done === true) return undefined;
    if (next.value === PAUSE) quiet = 0;
    return next.value;
  };
  let first = nextSentence();
  while (first === PAUSE) {
    yield PAUSE;
    first = nextSentence();
  }
  for (let sentence = first; ; ) {
    if (sentence !== undefined && sentenceLines.far(sentence.start))
      yield* sentenceLines.reach(sentence.start);
    const line = sentence === undefined ? -1 : sentenceLines.lineOf(sentence.start);
    const head = sentence === undefined ? "" : sentenceLines.head();
    const own: Marker[] = [];
    // Each marker before this sentence to the sentence before it (the last one starting at or before it),
    // unless it stands on this sentence's line and that one's is another: then to this one. A marker before
    // the first sentence goes to it when on its line, else to none.
    for (; nextMarker < markers.length; nextMarker++) {
      const marker = markers[nextMarker] as Marker;
      if (sentence !== undefined && marker.start >= sentence.start) break;
      if (markerLines.far(marker.start)) yield* markerLines.reach(marker.start);
      const markerLine = markerLines.lineOf(marker.start);
      if (sentence !== undefined && markerLine === line && (current === undefined || current.line !== line))
        own.push(marker);
      else current?.markers.push(marker);
    }
    if (current !== undefined) {
      const claim = claimOf(masked, current, line, counter);
      if (claim !== null) {
        if (counter !== undefined)
          counter.steps += 4 * (claim.range[1] - claim.range[0]) + current.markers.length;
        quiet = 0;
        yield claim;
      } else if (++quiet >= PAUSE_EVERY) {
        quiet = 0;
        yield PAUSE;
      }
    }
    if (sentence === undefined) return;
    current = { sentence, line, head, markers: own };
    let next = nextSentence();
    while (next === PAUSE) {
      yield PAUSE;
      next = nextSentence();
    }
    sentence = next;
  }
}

// The claim of a finished sentence, or null for a heading or a line that leads into a list.
function claimOf(
  masked: string,
  { sentence, line, head, markers }: { sentence: Sentence; line: number; head: string; markers: Marker[] },
  nextLine: number,
  counter?: StepCounter,
): AnswerClaim | null {
  const leadIn = nextLine !== line && sentence.text.endsWith(":");
  if (HEADING.test(head) || leadIn) return null;
  return buildClaim(masked, head, [sentence.start, sentence.end], markers, counter);
}

function buildClaim(
  masked: string,
  head: string,
  sentence: Range,
  markers: Marker[],
  counter?: StepCounter,
): AnswerClaim {
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
    // the sentence stand both before and after it: it covers the words since the previous group (or the
    // sentence's start). Words after the last group are a clause of their own, with no marker, when they state
    // something (a content word or a number); else they join the last clause.
    if (!wordsBefore || marker.end >= lastWordEnd) continue;
    if (
      following === undefined
        ? !statesSomething(masked, marker.end, end)
        : !hasWordBetween(masked, marker.end, following.start)
    )
      continue;
    // The next clause starts at its first word: the separators before it close this clause's range (so the
    // clauses' ranges still meet end to end), not its text.
    const next = afterSeparators(masked, marker.end);
    clauses.push(clauseOf(masked, clauseStart, next, clauseMarkers, marker.end));
    clauseStart = next;
    clauseMarkers = [];
    wordsBefore = false;
  }
  clauses.push(clauseOf(masked, clauseStart, end, clauseMarkers));
  // One clause is the whole claim: its text is already tidied.
  const text = clauses.length === 1 ? (clauses[0] as Clause).text : tidy(masked.slice(start, end));
  return {
    range: [start, end],
    text,
    clauses,
    blockQuote: BLOCK_QUOTE.test(head),
    framing:
      markers.length === 0 &&
      (isEmphasisOnly(masked.slice(sentence[0], sentence[1]), counter) || isChatFraming(text, counter)),
  };
}

const EMPHASIS = ["**", "__"];

/**
 * The sentences with each emphasis the splitter cut from its text given back: `**Time limit.** Phones can …`
 * is cut after the full stop, leaving `**` to open the next sentence (it closes `**Time limit.`), and
 * `… bay. **Point 3.** …` leaves `**` at the end of the sentence before (it opens `Point 3.`). So a dropped
 * sentence takes its emphasis with it and the answer's text stays valid markdown, and a bold lead-in is one
 * sentence. One sentence held back at a time; each is read once more to count its marks: O(n). A `PAUSE` of
 * the splitter is passed on at once.
 */
function* withEmphasisClosed(
  text: string,
  sentences: Iterator<Sentence | Pause>,
): Generator<Sentence | Pause, void, undefined> {
  let previous: Sentence | undefined;
  for (let next = sentences.next(); next.done !== true; next = sentences.next()) {
    if (next.value === PAUSE) {
      yield PAUSE;
      continue;
    }
    let sentence: Sentence | undefined = next.value;
    if (previous !== undefined && !hasLineBreak(text, previous.end, sentence.start)) {
      for (const mark of EMPHASIS) {
        if (sentence === undefined || !isOdd(previous.text, mark)) continue;
        const trailing = previous.text.trimEnd();
        if (trailing.endsWith(` ${mark}`) || trailing.endsWith(`\t${mark}`)) {
          // An opener left at the end of the sentence before: it goes to this one.
          const at: number = previous.start + trailing.length - mark.length;
          const end: number = previous.start + previous.text.slice(0, at - previous.start).trimEnd().length;
          previous = { ...previous, end, text: text.slice(previous.start, end) };
          sentence = { ...sentence, start: at, text: text.slice(at, sentence.end) };
        } else if (text.startsWith(mark, sentence.start)) {
          // A closer left at the start of this sentence: it goes to the one before.
          const end: number = sentence.start + mark.length;
          previous = { ...previous, end, text: text.slice(previous.start, end) };
          let start = end;
          while (start < sentence.end && (text[start] === " " || text[start] === "\t")) start++;
          sentence = WORD.test(text.slice(start, sentence.end))
            ? { ...sentence, start, text: text.slice(start, sentence.end) }
            : undefined;
        }
      }
    }
    if (sentence === undefined) continue;
    if (previous !== undefined) yield previous;
    previous = sentence;
  }
  if (previous !== undefined) yield previous;
}

// Whether `text[from, to)` holds a `\n`, read in place (no copy of the gap between two sentences).
function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (text.charCodeAt(at) === 10) return true;
  return false;
}

// Whether `text` holds an odd number of `mark`s: one of them is not closed within it.
function isOdd(text: string, mark: string): boolean {
  let count = 0;
  for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + mark.length)) count++;
  return count % 2 === 1;
}

const isWord = (text: string, index: number): boolean => WORD.test(text.charAt(index));

// Whether `[from, to)` holds a number or a content word (`contentTerm`): words that a source must hold. O(to - from).
function statesSomething(text: string, from: number, to: number): boolean {
  const part = text.slice(from, to);
  if (DIGIT.test(part)) return true;
  let found = false;
  forEachWord(part, (word) => {
    found ||= contentTerm(word) !== null;
  });
  return found;
}

const DIGIT = /\p{Nd}/u;

function hasWordBetween(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (isWord(text, index)) return true;
  return false;
}

// The end of the last letter or digit in `[from, to)`, or `from`.
function lastWordEndIn(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) if (isWord(text, index)) return index + 1;
  return from;
}

// Spaces and the punctuation that joins a clause to the one before (`, and`, `; its`, ` — while`) are not part of
// a clause that follows a marker: it starts at its first word (or quotation mark), so its `claim` text, and its
// range when it holds no marker, read as the words it states. O(those characters).
function afterSeparators(masked: string, from: number): number {
  let at = from;
  while (at < masked.length && SEPARATORS.includes(masked.charAt(at))) at++;
  return at;
}

const SEPARATORS = " \t\u00a0,;:\u2013\u2014";

// A clause over `[start, end)`, its text up to `textEnd` (the separators after its marker left out).
function clauseOf(masked: string, start: number, end: number, markers: Marker[], textEnd = end): Clause {
  const text = masked.slice(start, end);
  return { range: [start, end], text: tidy(masked.slice(start, textEnd)), masked: text, markers };
}

/**
 * The text a person reads (the answer's text without markers, for display): spaces made one, none before
 * punctuation, trimmed. What `text.replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, " ").replace(/ (?=[.,;:!?)\]])/g, "")
 * .trim()` gives (a property test holds the two equal), in one pass: each run of spaces, tabs and no-break spaces becomes one space, or none before `.,;:!?)]`;
 * text without such a change is not copied. O(text).
 */
export function tidy(text: string): string {
  // Most text has no tab, no-break space, run of spaces or space before punctuation: only its ends change.
  // Else the first change is found by the pattern, and read from the run it is in: that run starts there or
  // one space before (a space before that would have been the first), and every run before it stays.
  const first = text.search(UNTIDY);
  if (first < 0) return text.trim();
  let tidied = "";
  let copied = 0;
  for (let at = first > 0 && text.charCodeAt(first - 1) === 32 ? first - 1 : first; at < text.length; at++) {
    if (!isSpaceLike(text.charCodeAt(at))) continue;
    let end = at + 1;
    while (end < text.length && isSpaceLike(text.charCodeAt(end))) end++;
    const next = end < text.length ? text.charCodeAt(end) : -1;
    const replacement = BEFORE_PUNCTUATION.has(next) ? "" : " ";
    // A lone space that stays: nothing to change.
    if (!(end === at + 1 && replacement === " " && text.charCodeAt(at) === 32)) {
      tidied += text.slice(copied, at) + replacement;
      copied = end;
    }
    at = end - 1;
  }
  return (copied === 0 ? text : tidied + text.slice(copied)).trim();
}

// What SPACES and SPACE_BEFORE_PUNCTUATION read: a space, tab or no-break space, and `.,;:!?)]`.
const isSpaceLike = (code: number): boolean => code === 32 || code === 9 || code === 0xa0;
const BEFORE_PUNCTUATION: ReadonlySet<number> = new Set([46, 44, 59, 58, 33, 63, 41, 93]);
// What `tidy` changes besides the ends: a tab or no-break space, or a space before another space or before
// punctuation (one character class or two characters: linear).
const UNTIDY = /[\t\u00a0]| [ .,;:!?)\]]/;

// The answer with each marker and hidden span replaced by spaces (line breaks kept): offsets stay the same.
// Yields `PAUSE` after every run of spans, with the characters passed counted as it goes (two steps each: one
// to copy or blank it, one to join it), so a caller pausing by steps pauses inside a long run of spans too;
// the pieces are joined a run at a time, so no single join copies more than a run's pieces. O(answer + spans).
function* blankOut(
  answer: string,
  markers: readonly Marker[],
  hidden: readonly Range[],
  counter?: StepCounter,
): Generator<Pause, string> {
  const runs: string[] = [];
  let parts: string[] = [];
  let at = 0;
  let quiet = 0;
  let newline = answer.indexOf("\n");
  // Copies the text from `at` towards `to` in runs of COPY_RUN_CHARS, pausing after each, until less than a run
  // is left.
  function* copyRunsTowards(to: number): Generator<Pause> {
    while (to - at > COPY_RUN_CHARS) {
      runs.push(parts.join(""), answer.slice(at, at + COPY_RUN_CHARS));
      parts = [];
      at += COPY_RUN_CHARS;
      if (counter !== undefined) counter.steps += 2 * COPY_RUN_CHARS;
      yield PAUSE;
    }
  }
  // The markers and the hidden spans in order of start (a marker first on a tie), merged as they are read:
  // no list of every span is made at once.
  let nextMarker = 0;
  let nextHidden = 0;
  while (nextMarker < markers.length || nextHidden < hidden.length) {
    const marker = markers[nextMarker];
    const span = hidden[nextHidden];
    let start: number;
    let end: number;
    if (marker !== undefined && (span === undefined || marker.start <= span[0])) {
      ({ start, end } = marker);
      nextMarker++;
    } else {
      [start, end] = span as Range;
      nextHidden++;
    }
    if (counter !== undefined) counter.steps += 1;
    if (start < at) continue;
    // A long stretch of text between two spans is copied by runs, pausing after each.
    yield* copyRunsTowards(start);
    parts.push(answer.slice(at, start));
    // Spaces for every character but a line break (the next line break is looked for once per line: spans
    // come in order).
    for (let from = start; from < end; ) {
      if (newline >= 0 && newline < from) newline = answer.indexOf("\n", from);
      const to = newline < 0 || newline >= end ? end : newline;
      parts.push(" ".repeat(to - from));
      if (to < end) parts.push("\n");
      from = to + 1;
    }
    if (counter !== undefined) counter.steps += 2 * (end - at);
    at = end;
    if (++quiet >= PAUSE_EVERY) {
      quiet = 0;
      runs.push(parts.join(""));
      parts = [];
      yield PAUSE;
    }
  }
  yield* copyRunsTowards(answer.length);
  parts.push(answer.slice(at));
  if (counter !== undefined) counter.steps += 2 * (answer.length - at) + runs.length;
  runs.push(parts.join(""));
  return runs.join("");
}

/** Characters of text between two spans that `blankOut` copies between two pauses. */
const COPY_RUN_CHARS = 4_096;

/** Characters a line cursor passes between two pauses (`LineCursor.reach`). */
const REACH_CHARS = 8_192;

/** Line numbers of nondecreasing offsets, found by reading the text once, and the head of the current line. */
class LineCursor {
  private line = 0;
  private lineStart = 0;
  /** Where reading stopped: every line break before it is counted. */
  private read = 0;

  constructor(
    private readonly content: string,
    private readonly counter?: StepCounter,
  ) {}

  /**
   * Reads on to `offset` (at or after every offset asked before), yielding `PAUSE` after each REACH_CHARS
   * characters: the lines before a sentence or marker far ahead (a long run of blank or hidden lines, a long
   * line) are not passed in one go.
   */
  /** Whether `offset` is more than REACH_CHARS past where reading stopped: `reach` would pause on the way. */
  far(offset: number): boolean {
    return offset - this.read > REACH_CHARS;
  }

  *reach(offset: number): Generator<Pause> {
    while (offset - this.read > REACH_CHARS) {
      this.readTo(this.read + REACH_CHARS);
      yield PAUSE;
    }
  }

  /** The line of `offset`, which is at or after every offset asked before: O(characters passed). */
  lineOf(offset: number): number {
    this.readTo(offset);
    return this.line;
  }

  // Counts the line breaks before `offset`, each character read once.
  private readTo(offset: number): void {
    if (offset <= this.read) return;
    if (this.counter !== undefined) this.counter.steps += offset - this.read;
    for (let at = this.read; at < offset; at++) {
      if (this.content.charCodeAt(at) === 10) {
        this.line++;
        this.lineStart = at + 1;
      }
    }
    this.read = offset;
  }

  /** The first 16 characters of the current line: enough to tell a heading or a block quote. */
  head(): string {
    const head = this.content.slice(this.lineStart, this.lineStart + 16);
    const newline = head.indexOf("\n");
    return newline < 0 ? head : head.slice(0, newline);
  }
}
