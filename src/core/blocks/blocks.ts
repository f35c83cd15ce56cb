import { PAUSE, PAUSE_EVERY, type Pause } from "../pause.js";
import type { StepCounter } from "../step-counter.js";
import { tableSpans } from "../tables/index.js";
import { isWhitespaceChar } from "../text/index.js";

/** A `[start, end)` span of a text, in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/**
 * A part of a markdown-ish text: a line of prose (trimmed), or a table. A table with a header is exactly
 * what the core's one table reader (`parseMarkdownTables`, used by the row check) finds: `header` is its
 * header line and `rows` its body lines, the delimiter row left out. Consecutive lines starting with `|`
 * that form no such table (key/value rows such as `| Total due | €1,440.00 |`) are a table with a null
 * header, so that the local model can still read them as labelled values.
 */
export type Block =
  | { kind: "line"; line: Span; next: Span | null }
  | { kind: "table"; header: Span | null; rows: Span[] };

/**
 * A part of `blockParts`, in text order: a prose line; the start of a table (its header line, null for
 * lines starting with `|` that form no table); a row of the table last started.
 */
export type BlockPart =
  | { kind: "line"; line: Span; next: Span | null }
  | { kind: "table"; header: Span | null }
  | { kind: "row"; row: Span };

interface Line extends Span {
  /** True when a blank line (or the start of the text) comes right before this line. */
  afterBlank: boolean;
}

/**
 * Splits a text into lines and tables. A line's `next` is the line right below it, or null after a blank
 * line, so a lone `Bill to:` can take its value from the next line. O(length of the text).
 */
export function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let table: Extract<Block, { kind: "table" }> | undefined;
  for (const part of blockParts(text)) {
    if (part === PAUSE) continue;
    if (part.kind === "line") blocks.push(part);
    else if (part.kind === "table") {
      table = { kind: "table", header: part.header, rows: [] };
      blocks.push(table);
    } else table?.rows.push(part.row);
  }
  return blocks;
}

/**
 * `splitBlocks` one part at a time, reading the text once (lines, and the table reader's `tableSpans`), so a
 * caller keeps only what it needs and may stop early. With `counter`, the characters read.
 */
export function* blockParts(text: string, counter?: StepCounter): Generator<BlockPart | Pause> {
  const lines = linesOf(text, counter);
  const tables = tableSpans(text, counter);
  // The next line or table, the pauses of their readers passed on: a loop at each place, not a delegated
  // generator (one generator object a line made the splitting slower).
  let table = pull(tables);
  while (table === PAUSE) {
    yield PAUSE;
    table = pull(tables);
  }
  let line = pull(lines);
  while (line === PAUSE) {
    yield PAUSE;
    line = pull(lines);
  }
  while (line !== undefined) {
    while (table !== undefined && table.end <= line.start) {
      table = pull(tables);
      while (table === PAUSE) {
        yield PAUSE;
        table = pull(tables);
      }
    }
    if (table !== undefined && line.start >= table.start && line.end <= table.end) {
      // The first line is the header, the second the delimiter row; every later line is a body row.
      yield { kind: "table", header: span(line) };
      line = pull(lines);
      while (line === PAUSE) {
        yield PAUSE;
        line = pull(lines);
      }
      for (let position = 1; line !== undefined && line.end <= table.end; position++) {
        if (position >= 2) yield { kind: "row", row: span(line) };
        line = pull(lines);
        while (line === PAUSE) {
          yield PAUSE;
          line = pull(lines);
        }
      }
      continue;
    }
    if (startsWithPipe(text, line)) {
      const nextTableStart = table?.start ?? text.length;
      yield { kind: "table", header: null };
      yield { kind: "row", row: span(line) };
      line = pull(lines);
      while (line === PAUSE) {
        yield PAUSE;
        line = pull(lines);
      }
      while (
        line !== undefined &&
        !line.afterBlank &&
        startsWithPipe(text, line) &&
        line.start < nextTableStart
      ) {
        yield { kind: "row", row: span(line) };
        line = pull(lines);
        while (line === PAUSE) {
          yield PAUSE;
          line = pull(lines);
        }
      }
      continue;
    }
    let next: Line | Pause | undefined;
    next = pull(lines);
    while (next === PAUSE) {
      yield PAUSE;
      next = pull(lines);
    }
    yield {
      kind: "line",
      line: span(line),
      next: next === undefined || next.afterBlank ? null : span(next),
    };
    line = next;
  }
}

/** The next part of `parts` (a pause included), or undefined once they are done. */
function pull<T>(parts: Iterator<T | Pause>): T | Pause | undefined {
  const next = parts.next();
  return next.done === true ? undefined : next.value;
}

function span(line: Span): Span {
  return { start: line.start, end: line.end };
}

/** Characters of a line `linesOf` passes between two pauses. */
const LINE_RUN_CHARS = 8_192;

// The text's non-blank lines, trimmed, one at a time. A line ends at `\r\n`, `\r` or `\n`.
function* linesOf(text: string, counter?: StepCounter): Generator<Line | Pause> {
  let afterBlank = true;
  let quiet = 0;
  for (let at = 0; at < text.length; ) {
    if (++quiet >= PAUSE_EVERY) {
      quiet = 0;
      yield PAUSE;
    }
    let breakAt = at;
    let counted = at;
    for (; breakAt < text.length; breakAt++) {
      const code = text.charCodeAt(breakAt);
      if (code === 10 || code === 13) break;
      // A long line is passed by runs, counted and paused after each: no line is read in one go.
      if (breakAt - counted >= LINE_RUN_CHARS) {
        if (counter !== undefined) counter.steps += breakAt - counted;
        counted = breakAt;
        quiet = 0;
        yield PAUSE;
      }
    }
    let next = breakAt;
    if (next < text.length) next += text.charCodeAt(next) === 13 && text.charCodeAt(next + 1) === 10 ? 2 : 1;
    if (counter !== undefined) counter.steps += next - counted;
    // Trimmed as `String.prototype.trim` trims (its whitespace is `\s`'s), without copying the line.
    let start = at;
    while (start < breakAt && isWhitespaceChar(text.charCodeAt(start))) start++;
    let end = breakAt;
    while (end > start && isWhitespaceChar(text.charCodeAt(end - 1))) end--;
    if (start === end) afterBlank = true;
    else {
      quiet = 0;
      yield { start, end, afterBlank };
      afterBlank = false;
    }
    at = next;
  }
}

function startsWithPipe(text: string, line: Span): boolean {
  return text.charCodeAt(line.start) === 0x7c; // "|"
}
