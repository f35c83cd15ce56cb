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

interface Line {
  text: string;
  start: number;
}

const DELIMITER_CELL = /^:?-+:?$/;

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const content = text.charCodeAt(end - 1) === 13 && end > start ? end - 1 : end;
    lines.push({ text: text.slice(start, content), start });
    if (newline < 0) break;
    start = newline + 1;
  }
  return lines;
}

function isPipe(text: string, index: number): boolean {
  return text.charCodeAt(index) === 124 && text.charCodeAt(index - 1) !== 92;
}

function hasPipe(text: string): boolean {
  for (let index = text.indexOf("|"); index >= 0; index = text.indexOf("|", index + 1)) {
    if (isPipe(text, index)) return true;
  }
  return false;
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9 || code === 0xa0 || code === 0x3000;
}

function cell(line: Line, from: number, to: number): TableCell {
  let start = from;
  let end = to;
  while (start < end && isBlank(line.text.charCodeAt(start))) start += 1;
  while (end > start && isBlank(line.text.charCodeAt(end - 1))) end -= 1;
  return {
    text: line.text.slice(start, end).replaceAll("\\|", "|"),
    start: line.start + start,
    end: line.start + end,
  };
}

// Outer pipes are optional, so one leading and one trailing unescaped pipe are dropped before splitting.
function splitRow(line: Line): TableCell[] {
  let from = 0;
  let to = line.text.length;
  while (from < to && isBlank(line.text.charCodeAt(from))) from += 1;
  while (to > from && isBlank(line.text.charCodeAt(to - 1))) to -= 1;
  if (isPipe(line.text, from)) from += 1;
  if (to > from && isPipe(line.text, to - 1)) to -= 1;
  const cells: TableCell[] = [];
  let cellStart = from;
  for (let index = from; index < to; index += 1) {
    if (isPipe(line.text, index)) {
      cells.push(cell(line, cellStart, index));
      cellStart = index + 1;
    }
  }
  cells.push(cell(line, cellStart, to));
  return cells;
}

function isDelimiterRow(line: Line, columns: number): boolean {
  if (!hasPipe(line.text)) return false;
  const cells = splitRow(line);
  return cells.length === columns && cells.every((each) => DELIMITER_CELL.test(each.text));
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
 * Every GitHub-style pipe table in `text`: a header row, a delimiter row with as many cells, then body
 * rows. Unlike GFM, a body row must hold an unescaped pipe: a prose line right after a table ends it
 * instead of becoming a one-cell row that would name nothing real.
 */
export function parseMarkdownTables(text: string): MarkdownTable[] {
  if (!text.includes("|")) return [];
  const lines = splitLines(text);
  const tables: MarkdownTable[] = [];
  let index = 0;
  while (index + 1 < lines.length) {
    const headerLine = lines[index] as Line;
    const delimiterLine = lines[index + 1] as Line;
    if (!hasPipe(headerLine.text)) {
      index += 1;
      continue;
    }
    const header = splitRow(headerLine);
    if (!isDelimiterRow(delimiterLine, header.length)) {
      index += 1;
      continue;
    }
    const rows: TableCell[][] = [];
    let next = index + 2;
    let end = delimiterLine.start + delimiterLine.text.length;
    for (; next < lines.length; next += 1) {
      const line = lines[next] as Line;
      if (line.text.trim() === "" || !hasPipe(line.text)) break;
      rows.push(fitRow(splitRow(line), header.length));
      end = line.start + line.text.length;
    }
    tables.push({ header, rows, start: headerLine.start, end });
    index = next;
  }
  return tables;
}
