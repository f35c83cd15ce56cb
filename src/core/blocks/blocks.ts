/** A `[start, end)` span of a text, in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/**
 * A part of a markdown-ish text: a line of prose (trimmed), or a markdown table whose rows are
 * consecutive lines starting with `|`. A table's `header` is its first row when a separator row
 * (`|---|---|`) follows it; `rows` holds the other rows, separator rows left out.
 */
export type Block =
  | { kind: "line"; line: Span; next: Span | null }
  | { kind: "table"; header: Span | null; rows: Span[] };

const TABLE_SEPARATOR = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?$/;

interface Line extends Span {
  /** True when a blank line (or the start of the text) comes right before this line. */
  afterBlank: boolean;
}

/**
 * Splits a text into lines and tables. A blank line ends a table. A line's `next` is the line right
 * below it, or null after a blank line, so a lone `Bill to:` can take its value from the next line.
 */
export function splitBlocks(text: string): Block[] {
  const lines = splitLines(text);
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; ) {
    const line = lines[index] as Line;
    if (!isTableRow(text, line)) {
      const next = lines[index + 1];
      blocks.push({
        kind: "line",
        line: span(line),
        next: next === undefined || next.afterBlank ? null : span(next),
      });
      index++;
      continue;
    }
    let end = index + 1;
    while (end < lines.length && isTableRow(text, lines[end] as Line) && !(lines[end] as Line).afterBlank)
      end++;
    const rows = lines.slice(index, end);
    const second = rows[1];
    const hasHeader = second !== undefined && isTableSeparator(text, second);
    blocks.push({
      kind: "table",
      header: hasHeader ? span(line) : null,
      rows: rows
        .slice(hasHeader ? 2 : 0)
        .filter((row) => !isTableSeparator(text, row))
        .map(span),
    });
    index = end;
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

function isTableRow(text: string, line: Span): boolean {
  return text.charCodeAt(line.start) === 0x7c; // "|"
}

function isTableSeparator(text: string, line: Span): boolean {
  return TABLE_SEPARATOR.test(text.slice(line.start, line.end));
}
