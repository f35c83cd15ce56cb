import { type MarkdownTable, parseMarkdownTables } from "../tables/index.js";

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

interface Line extends Span {
  /** True when a blank line (or the start of the text) comes right before this line. */
  afterBlank: boolean;
}

/**
 * Splits a text into lines and tables. A line's `next` is the line right below it, or null after a blank
 * line, so a lone `Bill to:` can take its value from the next line. O(length of the text).
 */
export function splitBlocks(text: string): Block[] {
  const lines = splitLines(text);
  const tables = parseMarkdownTables(text);
  const blocks: Block[] = [];
  let tableIndex = 0;
  for (let index = 0; index < lines.length; ) {
    const line = lines[index] as Line;
    while (tableIndex < tables.length && (tables[tableIndex] as MarkdownTable).end <= line.start)
      tableIndex++;
    const table = tables[tableIndex];
    if (table !== undefined && line.start >= table.start && line.end <= table.end) {
      let end = index + 1;
      while (end < lines.length && (lines[end] as Line).end <= table.end) end++;
      // The first line is the header, the second the delimiter row; every later line is a body row.
      blocks.push({ kind: "table", header: span(line), rows: lines.slice(index + 2, end).map(span) });
      index = end;
      continue;
    }
    if (startsWithPipe(text, line)) {
      let end = index + 1;
      const nextTableStart = tables[tableIndex]?.start ?? text.length;
      while (end < lines.length) {
        const row = lines[end] as Line;
        if (row.afterBlank || !startsWithPipe(text, row) || row.start >= nextTableStart) break;
        end++;
      }
      blocks.push({ kind: "table", header: null, rows: lines.slice(index, end).map(span) });
      index = end;
      continue;
    }
    const next = lines[index + 1];
    blocks.push({
      kind: "line",
      line: span(line),
      next: next === undefined || next.afterBlank ? null : span(next),
    });
    index++;
  }
  return blocks;
}

function span(line: Span): Span {
  return { start: line.start, end: line.end };
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let afterBlank = true;
  for (const match of text.matchAll(/[^\r\n]*(?:\r\n|\r|\n|$)/g)) {
    if (match[0] === "") break;
    const body = match[0].replace(/[\r\n]+$/, "");
    const trimmed = body.trim();
    if (trimmed === "") {
      afterBlank = true;
      continue;
    }
    const start = match.index + (body.length - body.trimStart().length);
    lines.push({ start, end: start + trimmed.length, afterBlank });
    afterBlank = false;
  }
  return lines;
}

function startsWithPipe(text: string, line: Span): boolean {
  return text.charCodeAt(line.start) === 0x7c; // "|"
}
