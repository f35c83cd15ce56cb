import type { StepCounter } from "../step-counter.js";
import { codeClass } from "../wording/index.js";

/** One table cell: its text (trimmed, `\|` read as `|`) and where that trimmed text is in the source. */
export interface TableCell {
  text: string;
  start: number;
  end: number;
}

/** A GitHub-style pipe table; every body row has exactly as many cells as the header. */
export interface MarkdownTable {
  header: TableCell[];
  rows: TableCell[][];
  /** `[start, end)` of the table's lines in the source, header line to last body line. */
  start: number;
  end: number;
}

/** A line of the source, `[start, end)` without its line break; `next` is where the following line starts. */
interface Line {
  start: number;
  end: number;
  next: number;
}

const PIPE = 124;
const BACKSLASH = 92;

function lineAt(text: string, start: number): Line {
  const newline = text.indexOf("\n", start);
  const breakAt = newline < 0 ? text.length : newline;
  const end = breakAt > start && text.charCodeAt(breakAt - 1) === 13 ? breakAt - 1 : breakAt;
  return { start, end, next: newline < 0 ? -1 : newline + 1 };
}

function isPipe(text: string, index: number): boolean {
  return text.charCodeAt(index) === PIPE && text.charCodeAt(index - 1) !== BACKSLASH;
}

// Where the first unescaped pipe of `text[from, to)` stands, or `to` when there is none.
function pipeAt(text: string, from: number, to: number): number {
  for (let index = text.indexOf("|", from); index >= 0 && index < to; index = text.indexOf("|", index + 1))
    if (isPipe(text, index)) return index;
  return to;
}

function hasPipe(text: string, line: Line): boolean {
  return pipeAt(text, line.start, line.end) < line.end;
}

const isBlank = codeClass(" \t\u00a0\u3000");

// Where the trimmed text between `from` and `to` starts and ends.
function trimmedStart(text: string, from: number, to: number): number {
  let start = from;
  while (start < to && isBlank(text.charCodeAt(start))) start += 1;
  return start;
}

function trimmedEnd(text: string, start: number, to: number): number {
  let end = to;
  while (end > start && isBlank(text.charCodeAt(end - 1))) end -= 1;
  return end;
}

function cell(text: string, from: number, to: number): TableCell {
  const start = trimmedStart(text, from, to);
  const end = trimmedEnd(text, start, to);
  const raw = text.slice(start, end);
  return { text: raw.includes("\\|") ? raw.replaceAll("\\|", "|") : raw, start, end };
}

// A row's text between its outer pipes, blanks trimmed: outer pipes are optional, so one leading and one
// trailing unescaped pipe are dropped.
function rowInside(text: string, start: number, end: number): [number, number] {
  let from = trimmedStart(text, start, end);
  let to = trimmedEnd(text, from, end);
  if (from < to && isPipe(text, from)) from += 1;
  if (to > from && isPipe(text, to - 1)) to -= 1;
  return [from, to];
}

/**
 * The cells of one table row `text[start, end)` as the table reader splits them: outer pipes optional,
 * split at unescaped pipes, each cell trimmed. For rows outside a table (key/value lines such as
 * `| Total due | €1,440.00 |`) that still read as cells.
 */
export function splitRowCells(text: string, start: number, end: number): TableCell[] {
  const [from, to] = rowInside(text, start, end);
  const cells: TableCell[] = [];
  for (let cellStart = from; ; ) {
    const cellEnd = pipeAt(text, cellStart, to);
    cells.push(cell(text, cellStart, cellEnd));
    if (cellEnd === to) return cells;
    cellStart = cellEnd + 1;
  }
}

// Each delimiter cell is `-`s with optional alignment colons: `---`, `:--`, `:-:`, `--:`.
function isDelimiterCell(text: string, { start, end }: TableCell): boolean {
  let from = start;
  let to = end;
  if (from < to && text.charCodeAt(from) === 58) from += 1;
  if (to > from && text.charCodeAt(to - 1) === 58) to -= 1;
  if (from >= to) return false;
  for (let index = from; index < to; index += 1) if (text.charCodeAt(index) !== 45) return false;
  return true;
}

function isDelimiterRow(text: string, line: Line, columns: number): boolean {
  if (!hasPipe(text, line)) return false;
  const cells = splitRowCells(text, line.start, line.end);
  return cells.length === columns && cells.every((each) => isDelimiterCell(text, each));
}

// GFM pads short rows with empty cells and ignores extra ones, so every row lines up with the header.
function fitRow(cells: TableCell[], columns: number): TableCell[] {
  if (cells.length > columns) return cells.slice(0, columns);
  const last = cells[cells.length - 1];
  const at = last === undefined ? 0 : last.end;
  while (cells.length < columns) cells.push({ text: "", start: at, end: at });
  return cells;
}

/**
 * A pipe table as the row check reads it: the header's cells and each body row's first cell (the labels),
 * and every body cell only as offsets, so that a long source's cells make no object or string each.
 */
export interface TableLayout {
  header: TableCell[];
  /** Per body row, its first cell (as `parseMarkdownTables` gives it). */
  rowLabels: TableCell[];
  /** Per body row and header column, the cell's trimmed `[start, end)`: two entries per cell, row by row. */
  cellOffsets: Int32Array;
  start: number;
  end: number;
}

// The offsets of one body row's cells, fitted to `columns` as `fitRow` fits them, written at `slot`; the
// row's first cell is returned whole.
function rowOffsets(text: string, line: Line, columns: number, offsets: Int32Array, slot: number): TableCell {
  const [from, to] = rowInside(text, line.start, line.end);
  let first: TableCell | undefined;
  let column = 0;
  let lastEnd = 0;
  // Cell by cell: each ends at the next unescaped pipe, the last one at `to`.
  for (let cellStart = from; ; ) {
    const cellEnd = pipeAt(text, cellStart, to);
    if (column === 0) first = cell(text, cellStart, cellEnd);
    if (column < columns) {
      const start = trimmedStart(text, cellStart, cellEnd);
      lastEnd = trimmedEnd(text, start, cellEnd);
      offsets[slot + column * 2] = start;
      offsets[slot + column * 2 + 1] = lastEnd;
    }
    column += 1;
    if (cellEnd === to) break;
    cellStart = cellEnd + 1;
  }
  for (; column < columns; column += 1) {
    offsets[slot + column * 2] = lastEnd;
    offsets[slot + column * 2 + 1] = lastEnd;
  }
  return first as TableCell;
}

// The tables of `text`, each built by `build` from its header cells and its body lines.
function readTables<T>(
  text: string,
  build: (header: TableCell[], body: Line[], start: number, end: number) => T,
): T[] {
  const tables: T[] = [];
  for (const { header, body, start, end } of tablesIn(text, true))
    tables.push(build(header, body, start, end));
  return tables;
}

/**
 * The tables of `text` one at a time, with their body lines when `withBody` (else `body` is empty, so a long
 * table costs no object per line). Each line is read at most three times (as a delimiter candidate, a header
 * candidate, a body line), and the gaps between pipes once by `indexOf`: with `counter`, the characters read.
 */
function* tablesIn(
  text: string,
  withBody: boolean,
  counter?: StepCounter,
): Generator<{ header: TableCell[]; body: Line[]; start: number; end: number }> {
  let pipe = text.indexOf("|");
  let from = 0;
  while (pipe >= 0) {
    const headerLine = lineAt(text, text.lastIndexOf("\n", pipe - 1) + 1);
    const delimiterLine = headerLine.next < 0 ? undefined : lineAt(text, headerLine.next);
    if (counter !== undefined) {
      counter.steps += pipe - from + headerLine.end - headerLine.start + 1;
      if (delimiterLine !== undefined) counter.steps += delimiterLine.end - delimiterLine.start + 1;
    }
    const header = hasPipe(text, headerLine)
      ? splitRowCells(text, headerLine.start, headerLine.end)
      : undefined;
    if (
      header === undefined ||
      delimiterLine === undefined ||
      !isDelimiterRow(text, delimiterLine, header.length)
    ) {
      from = headerLine.next;
      pipe = headerLine.next < 0 ? -1 : text.indexOf("|", headerLine.next);
      continue;
    }
    const body: Line[] = [];
    let end = delimiterLine.end;
    let next = delimiterLine.next;
    while (next >= 0) {
      const line = lineAt(text, next);
      if (counter !== undefined) counter.steps += line.end - line.start + 1;
      if (trimmedStart(text, line.start, line.end) === line.end || !hasPipe(text, line)) break;
      if (withBody) body.push(line);
      end = line.end;
      next = line.next;
    }
    yield { header, body, start: headerLine.start, end };
    from = next;
    pipe = next < 0 ? -1 : text.indexOf("|", next);
  }
}

/**
 * Where `parseMarkdownTables` finds its tables, `[start, end)` header line to last body line, one at a time
 * and without reading their body cells: for readers that only need to know which lines are a table.
 */
export function* tableSpans(text: string, counter?: StepCounter): Generator<{ start: number; end: number }> {
  for (const { start, end } of tablesIn(text, false, counter)) yield { start, end };
}

/**
 * Every GitHub-style pipe table in `text`: a header row, a delimiter row with as many cells, then body
 * rows. Unlike GFM, a body row must hold an unescaped pipe: a prose line right after a table ends it
 * instead of becoming a one-cell row that would name nothing real. Only lines holding a `|` are read.
 */
export function parseMarkdownTables(text: string): MarkdownTable[] {
  return readTables(text, (header, body, start, end) => ({
    header,
    rows: body.map((line) => fitRow(splitRowCells(text, line.start, line.end), header.length)),
    start,
    end,
  }));
}

/** The tables `parseMarkdownTables` finds, as layouts: the same cells, but body cells as offsets only. */
export function parseTableLayouts(text: string): TableLayout[] {
  const found = readTables(text, (header, body, start, end) => ({ header, body, start, end }));
  // One block for the offsets of every table, each table's a view of it: a typed array of more than a
  // few cells is allocated outside the heap, and one such allocation per table cost more than its reading.
  let total = 0;
  for (const { header, body } of found) total += body.length * header.length * 2;
  const block = new Int32Array(total);
  let offset = 0;
  return found.map(({ header, body, start, end }) => {
    const columns = header.length;
    const size = body.length * columns * 2;
    const cellOffsets = block.subarray(offset, offset + size);
    offset += size;
    const rowLabels: TableCell[] = [];
    for (let row = 0; row < body.length; row += 1) {
      rowLabels.push(rowOffsets(text, body[row] as Line, columns, cellOffsets, row * columns * 2));
    }
    return { header, rowLabels, cellOffsets, start, end };
  });
}
