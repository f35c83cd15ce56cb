import { runSteps } from "../../util.js";
import { PAUSE, PAUSE_EVERY, type Pause } from "../pause.js";
import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";

/**
 * A citation marker in an answer: where it stands and the names it gives, each with the readings to try in
 * order (`【4:0†doc-a】` gives `doc-a`, then `4:0†doc-a`, then `4`).
 */
export interface Marker {
  start: number;
  end: number;
  /** The marker as written, for `explain`. */
  text: string;
  names: MarkerName[];
}

/** One name of a marker: what it says, and its readings as a source id or a 1-based position. */
export interface MarkerName {
  label: string;
  readings: string[];
}

/** A footnote's definition line (`[^1]: doc-a, page 3`): not a claim; it may say which source the footnote is. */
export interface FootnoteLine {
  start: number;
  end: number;
  label: string;
  text: string;
}

/** The markers of an answer, in order, and the footnote lines and code fences whose text is not a claim. */
export interface AnswerMarkers {
  markers: Marker[];
  /** Spans of the answer that hold no claim: footnote definition lines, fenced code blocks, link destinations. */
  hidden: Range[];
}

// One pass over the answer. Every repeat is bounded, so a failed attempt at a position reads at most a few
// hundred characters: linear in the answer.
//  1 `[^label]` a footnote reference (not followed by `:`: that is its definition);
//  2 `[names]`  a bracket of one or more names separated by `,` or `;`, not a Markdown link `[text](url)`;
//  3 `【…】`    the lenticular marks some assistants cite with (`【4:0†source】`);
//  4 `(source: names)`.
const MARKER =
  /\[\^([^\]\s]{1,64})\](?!:)|\[([^[\]\n]{1,200})\](?!\()|【([^【】\n]{1,200})】|\((?:sources?|src)[ \t]{0,4}:[ \t]{0,4}([^()\n]{1,200})\)/giu;

// A name in a bracket is one token: `[doc-a]`, `[1]`, `[Report 2023]` is not (prose in brackets is not a marker).
const NAME = /^[^\s[\]]{1,64}$/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
const FOOTNOTE_LINE = /^[ \t]{0,3}\[\^([^\]\s]{1,64})\]:[ \t]?/;
const LINK_DESTINATION = /\]\([^()\s]{1,2000}\)/g;
const FENCE = /^[ \t]{0,3}(?:```|~~~)/;
const TASK_BOX = /^[ \t]{0,8}[-*+][ \t]+$/;

/**
 * Finds the citation markers of an answer: `[id]`, `[1]`, `[1, 3]`, `[1][2]`, `[^1]` (with its definition
 * line), `【1†source】`, `【4:0†name】` and `(source: id)`. Markdown links, task boxes (`- [x]`) and brackets of
 * prose (`[citation needed]`) are not markers. Footnote definition lines and fenced code blocks are returned
 * as hidden spans. With `atMost`, stops after `atMost + 1` markers: enough to tell an answer of too many.
 * O(n) in the answer.
 */
export function findMarkers(answer: string, atMost = Number.POSITIVE_INFINITY): AnswerMarkers {
  return runSteps(markerSteps(answer, atMost));
}

/**
 * `findMarkers` in pieces: yields `PAUSE` after every run of lines, links and markers, so its caller may
 * pause; with `counter`, the characters read (each pass reads the answer once).
 */
export function* markerSteps(
  answer: string,
  atMost = Number.POSITIVE_INFINITY,
  counter?: StepCounter,
): Generator<Pause, AnswerMarkers> {
  let hidden: Range[] = [];
  const definitions = new Map<string, string>();
  let inFence = false;
  let fenceStart = 0;
  let quiet = 0;
  for (let lineStart = 0; lineStart <= answer.length; ) {
    if (++quiet >= PAUSE_EVERY) {
      quiet = 0;
      yield PAUSE;
    }
    // The line's end, looked for a window at a time, pausing between windows: a long line is not passed in
    // one go.
    let lineEnd = lineStart;
    let counted = lineStart;
    for (;;) {
      const windowEnd = Math.min(answer.length, lineEnd + WINDOW_CHARS);
      while (lineEnd < windowEnd && answer.charCodeAt(lineEnd) !== 10) lineEnd++;
      if (lineEnd < windowEnd || windowEnd === answer.length) break;
      if (counter !== undefined) counter.steps += lineEnd - counted;
      counted = lineEnd;
      yield PAUSE;
    }
    const newline = lineEnd < answer.length ? lineEnd : -1;
    if (counter !== undefined) counter.steps += lineEnd - counted + 1;
    // Only a line whose first character after at most three spaces or tabs is a backtick, a tilde or `[`
    // can be a fence or a footnote's definition: the others are not copied.
    const lead = leadingCharacter(answer, lineStart, lineEnd);
    if (lead === 96 || lead === 126 || lead === 91) {
      const line = answer.slice(lineStart, lineEnd);
      if (FENCE.test(line)) {
        if (inFence) hidden.push([fenceStart, lineEnd]);
        else fenceStart = lineStart;
        inFence = !inFence;
      } else if (!inFence) {
        const footnote = FOOTNOTE_LINE.exec(line);
        if (footnote !== null) {
          const label = footnote[1] as string;
          if (!definitions.has(label)) definitions.set(label, line.slice(footnote[0].length).trim());
          hidden.push([lineStart, lineEnd]);
        }
      }
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  if (inFence) hidden.push([fenceStart, answer.length]);
  // A link's destination (`[text](url)`) is an address, not words of the claim.
  const links: Range[] = [];
  for (const match of matchesByWindows(LINK_DESTINATION, answer, LINK_REACH, counter)) {
    if (match === PAUSE) {
      quiet = 0;
      yield PAUSE;
      continue;
    }
    links.push([match.index + 1, match.index + match[0].length]);
    if (++quiet >= PAUSE_EVERY) {
      quiet = 0;
      yield PAUSE;
    }
  }
  // Most answers have no link: their lines' spans are the hidden spans as they are, not copied.
  if (links.length > 0) hidden = mergeByStart(hidden, links);
  if (counter !== undefined) counter.steps += hidden.length;

  const markers: Marker[] = [];
  let hiddenIndex = 0;
  for (const match of matchesByWindows(MARKER, answer, MARKER_REACH, counter)) {
    if (match === PAUSE || ++quiet >= PAUSE_EVERY) {
      quiet = 0;
      yield PAUSE;
      if (match === PAUSE) continue;
    }
    if (markers.length > atMost) break;
    const start = match.index;
    while (hiddenIndex < hidden.length && (hidden[hiddenIndex] as Range)[1] <= start) hiddenIndex++;
    const inHidden = hiddenIndex < hidden.length && (hidden[hiddenIndex] as Range)[0] <= start;
    if (inHidden) continue;
    const names = markerNames(match, definitions, answer, start);
    if (names !== null) markers.push({ start, end: start + match[0].length, text: match[0], names });
  }
  return { markers, hidden };
}

// The longest match of LINK_DESTINATION and of MARKER in UTF-16 units (MARKER counts code points), and a
// character of look-ahead after it.
const LINK_REACH = 2_004;
const MARKER_REACH = 512;
/** Characters of the answer a pattern is run over at once (`matchesByWindows`). */
const WINDOW_CHARS = 8_192;

/**
 * The matches of a global `pattern` in `text`, as one `exec` loop over the whole text finds them (absolute
 * `index`), found by running it over windows of WINDOW_CHARS characters plus `reach` (at least its longest
 * match and look-ahead; it has no look-behind): `PAUSE` after each window, with the window's characters
 * counted, so a text with no match is not read in one go. O(text + matches × reach).
 */
export function* matchesByWindows(
  pattern: RegExp,
  text: string,
  reach: number,
  counter?: StepCounter,
  windowChars = WINDOW_CHARS,
): Generator<RegExpExecArray | Pause> {
  let from = 0;
  while (from < text.length) {
    const windowEnd = Math.min(text.length, from + windowChars);
    const slice = text.slice(from, Math.min(text.length, windowEnd + reach));
    if (counter !== undefined) counter.steps += slice.length;
    pattern.lastIndex = 0;
    let next = windowEnd;
    for (let match = pattern.exec(slice); match !== null; match = pattern.exec(slice)) {
      if (from + match.index >= windowEnd) break;
      const end = from + match.index + match[0].length;
      match.index += from;
      yield match;
      next = Math.max(windowEnd, end);
    }
    from = next;
    yield PAUSE;
  }
}

/**
 * Two lists of ranges, each in order of start, as one in order of start (the first list's first on a tie):
 * what a stable sort of the two together gives, in one pass.
 */
export function mergeByStart(first: readonly Range[], second: readonly Range[]): Range[] {
  const merged: Range[] = [];
  let from = 0;
  for (const range of second) {
    while (from < first.length && (first[from] as Range)[0] <= range[0]) merged.push(first[from++] as Range);
    merged.push(range);
  }
  while (from < first.length) merged.push(first[from++] as Range);
  return merged;
}

// The code of a line's first character after at most three spaces or tabs (FENCE and FOOTNOTE_LINE allow
// three), or -1.
function leadingCharacter(answer: string, lineStart: number, lineEnd: number): number {
  for (let at = lineStart; at < lineEnd && at <= lineStart + 3; at++) {
    const code = answer.charCodeAt(at);
    if (code !== 32 && code !== 9) return code;
  }
  return -1;
}

function markerNames(
  match: RegExpExecArray,
  definitions: ReadonlyMap<string, string>,
  answer: string,
  start: number,
): MarkerName[] | null {
  const [, footnote, bracket, lenticular, sourceParen] = match;
  if (footnote !== undefined) {
    const definition = definitions.get(footnote);
    const readings = definition === undefined ? [] : definitionReadings(definition);
    return [{ label: footnote, readings: [...readings, footnote] }];
  }
  if (lenticular !== undefined) return [lenticularName(lenticular.trim())];
  const list = bracket ?? sourceParen;
  if (list === undefined) return null;
  // `- [x] task` and `- [ ] task` are task boxes, not citations.
  if (bracket !== undefined && isTaskBox(answer, start)) return null;
  const names: MarkerName[] = [];
  for (const part of list.split(/[,;]/)) {
    const label = part.trim();
    if (!NAME.test(label) || !HAS_WORD.test(label)) return null;
    names.push({ label, readings: [label] });
  }
  return names.length === 0 ? null : names;
}

// The readings of a footnote's definition: the text itself (`doc-a`), without a `Source:` lead or brackets.
function definitionReadings(definition: string): string[] {
  const bare = definition
    .replace(/^(?:sources?|src)[ \t]{0,4}:[ \t]{0,4}/i, "")
    .replace(/^\[([^\]]{1,200})\]$/, "$1")
    .trim();
  return bare === definition ? [definition] : [bare, definition];
}

// `【4:0†doc-a】`: the name after the dagger, then the whole, then the first number (the position).
function lenticularName(content: string): MarkerName {
  const dagger = content.indexOf("†");
  const readings: string[] = [];
  if (dagger >= 0) readings.push(content.slice(dagger + 1).trim());
  readings.push(content);
  const position = /^\d{1,9}/.exec(content);
  if (position !== null) readings.push(position[0]);
  return { label: content, readings };
}

// Reads at most 16 characters back: a task box's bullet stands at most that far from the line's start.
function isTaskBox(text: string, start: number): boolean {
  const from = Math.max(0, start - 16);
  const before = text.slice(from, start);
  const newline = before.lastIndexOf("\n");
  if (newline < 0 && from > 0) return false;
  return TASK_BOX.test(before.slice(newline + 1));
}

/**
 * The source a marker name names: the first reading equal to a source id, else the first reading that is a
 * positive integer n no greater than the number of sources (the n-th source, 1-based), else null.
 */
export function resolveMarkerName(
  name: MarkerName,
  sourceIds: readonly string[],
  ids: ReadonlyMap<string, unknown>,
): string | null {
  for (const reading of name.readings) if (ids.has(reading)) return reading;
  for (const reading of name.readings) {
    if (!/^[1-9]\d{0,8}$/.test(reading)) continue;
    const position = Number(reading);
    if (position <= sourceIds.length) return sourceIds[position - 1] as string;
  }
  return null;
}
