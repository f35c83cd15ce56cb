import { LONG_LINE, PAUSE, type Pause, type Range, type StepCounter } from "../../core/index.js";

/** A claim's span in the text the stream has not checked yet. */
export interface ClaimSpan {
  start: number;
  end: number;
}

/** What a cut needs to know of the line the unchecked text starts in, when it starts inside one. */
export interface LineBefore {
  /** The characters of the line before the unchecked text: 0 when the text starts at a line's start. */
  chars: number;
  /** Whether the line's head lets it be cut inside: not a heading (`#`) nor a block quote (`>`). */
  plainHead: boolean;
}

/**
 * What `findCut` learnt of the text beyond its cut: whether the text holds no line break and its line's part
 * holds a place where a long line's sure breaks and the sentence segmenter surely disagree (the text after that
 * place already arrived). No claim start after that place is then a cut while the line goes on, so a caller
 * need not split the line again before a line break arrives.
 */
export interface CutScan {
  waitsForBreak: boolean;
}

/** A place to cut the unchecked text, and the line the text after it starts in. */
export interface Cut {
  at: number;
  next: LineBefore;
}

// Closing quotes and brackets the splitter's sure-break rule looks back over after a sentence end (at most 8).
const CLOSERS = new Set([34, 39, 0x201d, 0x2019, 41, 93]);
const LETTER = /^\p{L}/u;
const CAPITAL = /^\p{Lu}/u;
const NUMBER = /^\p{N}/u;
const LETTER_OR_NUMBER = /^[\p{L}\p{N}]/u;
const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9;
const isCjkStop = (code: number): boolean => code === 0x3002 || code === 0xff01 || code === 0xff1f;
const isBreak = (code: number): boolean => code === 10 || code === 13;

/**
 * Where the unchecked text of a streamed answer can be cut so that its two parts split into the claims the
 * whole answer splits into (each part checked on its own, the first now, the second once more has come), and
 * the claim before the cut is closed whatever comes next. `claims` are the claims of `text` split as a whole
 * (sorted by start); `hidden` its hidden spans (fences, footnote definitions); `before` the line `text` starts
 * in. Candidates, the furthest valid one taken:
 * - a line's start (after `\n`), when no claim or hidden span runs over it, and either a claim
 *   starts on that line (so markers between are the earlier claim's) or none starts before it; not between two
 *   lines with pipes (a table's rows: the first after the cut would read as a header), nor before an unfinished
 *   line after a line with pipes;
 * - a claim's start inside a line that holds no pipe (no table's), at a sure sentence break (`. ` and a capital, or right after `。！？` and a
 *   letter: where the splitter cuts a long line too), on a line that is no heading or block quote, with no
 *   place in the line's part since the last cut where a long line's sure breaks and the sentence segmenter
 *   disagree (`. ` then a digit; `。` then punctuation): so the part splits the same whether the whole line is
 *   over `LONG_LINE` characters (cut at sure breaks first) or not.
 * When the text starts inside a line whose part up to the line's end could split otherwise (the line over
 * `LONG_LINE`, that part not, and a disagreement in it), nothing after that line is cut: the check of the
 * whole answer at the end reports it. One pass over `text`, each character read a bounded number of times:
 * O(n + claims + hidden spans); it yields `PAUSE` after every CUT_SLICE_CHARS characters, where its caller may
 * take a turn of the event loop. With `scan`, it tells what it learnt beyond the cut (`CutScan`).
 */
export function* findCut(
  text: string,
  claims: readonly ClaimSpan[],
  hidden: readonly Range[],
  before: LineBefore,
  counter?: StepCounter,
  scan?: CutScan,
): Generator<Pause, Cut | undefined> {
  // The furthest cut so far (`bestAt` < 0: none yet), kept as numbers: a text of many short lines has a cut at
  // each, and the Cut is made once, at the end.
  let bestAt = -1;
  let bestChars = 0;
  let bestPlainHead = true;
  let claimIndex = 0;
  let nextClaimAt = claims[0]?.start ?? Number.POSITIVE_INFINITY;
  let hiddenIndex = 0;
  /** The furthest end of the claims started so far, and whether any started, before the line being read. */
  let claimsEnd = 0;
  let claimBefore = false;
  let spanEndBeforeLine = 0;
  let claimBeforeLine = false;
  // The line being read: where it starts (negative for the line the text starts inside), the first
  // disagreement in its part since the text's start, and what it holds.
  let lineStart = -before.chars;
  let plainHead = before.chars > 0 ? before.plainHead : headIsPlain(text, 0, text.length);
  let firstRisky = Number.POSITIVE_INFINITY;
  let hasPipe = false;
  let previousHasPipe = false;
  let claimOnLine = before.chars > 0;
  /** Whether the line being read starts after a `\n` (a lone `\r` ends a line, but not a fence's line). */
  let afterNewline = false;
  /** Whether lines after the first may be cut (see above). */
  let laterLines = true;
  let firstLine = true;

  // The start of the line that ends at `end`, as a cut before it.
  const lineCut = (end: number, complete: boolean): void => {
    if (lineStart <= 0 || !afterNewline || !laterLines || bestAt >= lineStart) return;
    // A span that runs to the text's end (a fence not closed yet) covers every line after its start.
    while (hiddenIndex < hidden.length && !spansOver(hidden[hiddenIndex] as Range, lineStart, text.length))
      hiddenIndex++;
    const inHidden = hiddenIndex < hidden.length && (hidden[hiddenIndex] as Range)[0] < lineStart;
    const tableRow = previousHasPipe && (hasPipe || !complete);
    if (inHidden || tableRow || spanEndBeforeLine > lineStart) return;
    if (claimOnLine || !claimBeforeLine) {
      bestAt = lineStart;
      bestChars = 0;
      bestPlainHead = headIsPlain(text, lineStart, end);
    }
  };

  // A pause after every CUT_SLICE_CHARS characters: at the last of each slice.
  for (let at = 0, pauseAt = CUT_SLICE_CHARS - 1; at <= text.length; at++) {
    if (at === pauseAt) {
      pauseAt += CUT_SLICE_CHARS;
      yield PAUSE;
    }
    // A claim starting here, after another on its line: a cut when it stands at a sure break. (`nextClaimAt`:
    // the next claim's start, read once per claim rather than once per character.)
    while (nextClaimAt <= at) {
      const claim = claims[claimIndex] as ClaimSpan;
      if (
        claim.start === at &&
        claimOnLine &&
        at > 0 &&
        plainHead &&
        !hasPipe &&
        firstRisky >= at &&
        (firstLine || laterLines) &&
        sureBreakAt(text, Math.max(lineStart, 0), at)
      ) {
        bestAt = at;
        bestChars = at - lineStart;
        bestPlainHead = plainHead;
      }
      claimOnLine = true;
      claimBefore = true;
      claimsEnd = Math.max(claimsEnd, claim.end);
      claimIndex++;
      nextClaimAt = claims[claimIndex]?.start ?? Number.POSITIVE_INFINITY;
    }
    if (at === text.length) {
      lineCut(at, false);
      break;
    }
    const code = text.charCodeAt(at);
    // A character that is no line break, pipe or full stop changes nothing here: the run of such characters up to
    // the next claim's start or pause is passed at once (`nextMark`, a loop that keeps nothing of this one's).
    if (code < 128 ? MARKS[code] === 0 : !isCjkStop(code)) {
      at = nextMark(text, at + 1, Math.min(text.length, nextClaimAt, pauseAt)) - 1;
      continue;
    }
    if (isBreak(code)) {
      if (code === 13 && at + 1 >= text.length) {
        // A `\r` at the end may be the first half of `\r\n`: the line is not known to have ended.
        lineCut(at, false);
        break;
      }
      // The `\r` of `\r\n` ends nothing: its `\n` does.
      if (code === 13 && text.charCodeAt(at + 1) === 10) continue;
      lineCut(at, true);
      if (firstLine && before.chars > 0) {
        // Whether the first line's part from the text's start splits as it does within the whole line.
        if (before.chars + at > LONG_LINE && at <= LONG_LINE && firstRisky < at) laterLines = false;
      }
      firstLine = false;
      previousHasPipe = hasPipe;
      lineStart = at + 1;
      afterNewline = code === 10;
      plainHead = headIsPlain(text, lineStart, text.length);
      firstRisky = Number.POSITIVE_INFINITY;
      hasPipe = false;
      claimOnLine = false;
      spanEndBeforeLine = claimsEnd;
      claimBeforeLine = claimBefore;
      continue;
    }
    if (code === 124) hasPipe = true;
    // Only a full stop or a CJK one can disagree: the others are not looked at further.
    if (firstRisky === Number.POSITIVE_INFINITY && (code === 46 || isCjkStop(code)) && disagreesAt(text, at))
      firstRisky = at;
  }
  if (counter !== undefined) counter.steps += 2 * text.length + claims.length + hidden.length;
  // Still on the first line at the end: its first disagreement, read with the text's end as an open end.
  if (scan !== undefined)
    scan.waitsForBreak =
      firstLine &&
      !isBreak(text.charCodeAt(text.length - 1)) &&
      firstRisky < text.length &&
      disagreesAt(text, firstRisky, false);
  return bestAt < 0 ? undefined : { at: bestAt, next: { chars: bestChars, plainHead: bestPlainHead } };
}

// The ASCII characters `findCut` looks at: line breaks, `|` and `.` (every other one passes unread).
const MARKS = new Uint8Array(128);
for (const code of [10, 13, 46, 124]) MARKS[code] = 1;

/** The first character from `from` before `end` that `findCut` looks at (`MARKS`, or `。！？`), else `end`. */
function nextMark(text: string, from: number, end: number): number {
  for (let at = from; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code < 128 ? MARKS[code] === 1 : isCjkStop(code)) return at;
  }
  return end;
}

/**
 * Whether the last piece of an answer (`text`, up to the answer's end), starting inside a line as `before`
 * says, splits alone as it does within the whole answer: not so when its part of that line is at most
 * `LONG_LINE` characters, the whole line over, and the part holds a place where a long line's sure breaks and
 * the sentence segmenter disagree (as `findCut` reads it; the answer's end is a line's end). O(LONG_LINE).
 */
export function splitsAsInWhole(text: string, before: LineBefore): boolean {
  if (before.chars === 0) return true;
  let end = 0;
  while (end < text.length && end <= LONG_LINE && !isBreak(text.charCodeAt(end))) end++;
  if (end > LONG_LINE || before.chars + end <= LONG_LINE) return true;
  const part = `${text.slice(0, end)}\n`;
  for (let at = 0; at < end; at++) if (disagreesAt(part, at)) return false;
  return true;
}

/** How the text a stream has read so far ends, for `cutMayFollow`: 0 nothing, 1 a sentence end, 2 and spaces. */
export interface CutWatch {
  state: number;
}

// The ASCII characters `cutMayFollow` reads in state 0: line breaks and sentence ends.
const ENDS_OR_BREAKS = new Uint8Array(128);
for (const code of [10, 13, 33, 46, 63]) ENDS_OR_BREAKS[code] = 1;
const AFTER_END = 1;
const AFTER_SPACE = 2;
const AFTER_CJK_END = 3;
const ASCII_LETTER = (code: number): boolean => (code | 32) >= 97 && (code | 32) <= 122;

/**
 * Whether `text`, read after what `watch` has read (and moving `watch` on), brings a place where `findCut` could
 * cut that was not there before: a line break (a line may start after it), or a letter after `.`, `!` or `?`,
 * closing quotes or brackets and spaces, or right after `。！？` (a claim may start there at a sure break). A
 * split of text without such a place finds no cut after the last one: a sentence's end alone is not yet one.
 * A surrogate pair's first half after a sentence end counts as a letter. O(text).
 */
export function cutMayFollow(watch: CutWatch, text: string): boolean {
  let state = watch.state;
  let found = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    // Most characters are read in state 0 and are neither a line break nor a sentence end: one look each.
    if (state === 0 && (code < 128 ? ENDS_OR_BREAKS[code] === 0 : !isCjkStop(code))) continue;
    if (isBreak(code)) {
      found = true;
      state = 0;
    } else if (code === 46 || code === 33 || code === 63) state = AFTER_END;
    else if (isCjkStop(code)) state = AFTER_CJK_END;
    else if (state === 0) continue;
    else if (isSpaceOrTab(code) && state !== AFTER_CJK_END) state = AFTER_SPACE;
    else if (state === AFTER_END && CLOSERS.has(code)) continue;
    else {
      // Once a place is found, only the state at the end matters: no letter is looked up again.
      if (!found && state !== AFTER_END && (ASCII_LETTER(code) || (code >= 0x80 && mayBeLetter(text, at))))
        found = true;
      state = 0;
    }
  }
  watch.state = state;
  return found;
}

// Whether the code point at `at` (not ASCII) is a letter or the first half of a surrogate pair.
const mayBeLetter = (text: string, at: number): boolean =>
  (text.charCodeAt(at) & 0xfc00) === 0xd800 || LETTER.test(text.slice(at, at + 1));

/** Characters `findCut` reads between two pauses. */
export const CUT_SLICE_CHARS = 65_536;

const spansOver = (span: Range, at: number, end: number): boolean => span[1] > at || span[1] >= end;

// Whether the line from `start` is neither a heading nor a block quote: its first character after spaces and
// tabs is no `#` or `>` (a stricter reading than the splitter's, which allows at most three spaces).
function headIsPlain(text: string, start: number, end: number): boolean {
  let at = start;
  while (at < end && isSpaceOrTab(text.charCodeAt(at))) at++;
  if (at >= end) return true;
  const code = text.charCodeAt(at);
  return code !== 35 && code !== 62;
}

/**
 * Whether a sentence surely starts at `at`, as the splitter's long-line cut reads it: a capital after `.`, `!`
 * or `?`, at most 8 closing quotes or brackets and spaces; or a letter right after `。！？`.
 */
function sureBreakAt(text: string, lineStart: number, at: number): boolean {
  const letter = text.slice(at, at + 2);
  if (!LETTER.test(letter)) return false;
  if (isCjkStop(text.charCodeAt(at - 1))) return true;
  if (!CAPITAL.test(letter)) return false;
  let back = at - 1;
  if (back < lineStart || !isSpaceOrTab(text.charCodeAt(back))) return false;
  while (back >= lineStart && isSpaceOrTab(text.charCodeAt(back))) back--;
  for (let closers = 0; back >= lineStart && closers <= 8; back--, closers++) {
    const code = text.charCodeAt(back);
    if (code === 46 || code === 33 || code === 63) return true;
    if (!CLOSERS.has(code)) return false;
  }
  return false;
}

/**
 * Whether a long line's sure break at `at` may be no break of the sentence segmenter: `.`, closers, spaces and a
 * digit (`in 2020. 5 of them`, one sentence to the segmenter), or `。！？` before punctuation (`好。」`). The
 * look-ahead reads the closers (at most 8) and the spaces after this `.`, which no other `.` reads. `open`: the
 * answer when the look-ahead reaches the text's end (more may come, so the place may yet disagree).
 */
function disagreesAt(text: string, at: number, open = true): boolean {
  const code = text.charCodeAt(at);
  if (isCjkStop(code)) {
    if (at + 1 >= text.length) return open;
    const next = text.charCodeAt(at + 1);
    return !(isSpaceOrTab(next) || isBreak(next) || LETTER_OR_NUMBER.test(text.slice(at + 1, at + 3)));
  }
  if (code !== 46) return false;
  let after = at + 1;
  for (let closers = 0; after < text.length && closers < 8 && CLOSERS.has(text.charCodeAt(after)); closers++)
    after++;
  if (after >= text.length) return open;
  if (!isSpaceOrTab(text.charCodeAt(after))) return false;
  while (after < text.length && isSpaceOrTab(text.charCodeAt(after))) after++;
  return after >= text.length ? open : NUMBER.test(text.slice(after, after + 2));
}
