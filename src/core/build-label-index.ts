import { foldLabelText } from "./fold-label-text.js";
import { isWordChar } from "./is-word-char.js";
import type { MarkdownTable } from "./parse-markdown-tables.js";
import { stripTrailingParenthetical } from "./strip-trailing-parenthetical.js";

/** A folded label text of one table, and the body rows and header columns it names. */
export interface LabelEntry {
  pattern: string;
  /** True for a label of symbols only (`$`, `%`, `±%`): it names only where no number stands beside it. */
  symbolic: boolean;
  table: number;
  rows: number[];
  columns: number[];
}

/** A source's labels, by the first word of their folded text (or their first character, when not a word). */
export type LabelIndex = Map<string, LabelEntry[]>;

/** The index key of a folded text at `start`: the word there, or the one character there. */
export function labelKeyAt(folded: string, start: number): string {
  let end = start;
  for (let codePoint = folded.codePointAt(end); isWordChar(codePoint); codePoint = folded.codePointAt(end)) {
    end += (codePoint as number) > 0xffff ? 2 : 1;
  }
  return end === start ? folded.charAt(start) : folded.slice(start, end);
}

function hasWordCharacter(text: string): boolean {
  for (const character of text) if (isWordChar(character.codePointAt(0))) return true;
  return false;
}

/**
 * Indexes the row labels (first cell of each body row) and column labels (header cells) of `tables`.
 * A label also stands without its trailing parenthetical, unless another label of that table is exactly
 * the shorter text. Empty labels name nothing.
 */
export function buildLabelIndex(tables: readonly MarkdownTable[]): LabelIndex {
  const index: LabelIndex = new Map();
  tables.forEach((table, tableNumber) => {
    const labels: { text: string; row?: number; column?: number }[] = [];
    table.rows.forEach((row, rowNumber) => {
      labels.push({ text: row[0]?.text ?? "", row: rowNumber });
    });
    table.header.forEach((cell, column) => {
      labels.push({ text: cell.text, column });
    });

    const entries = new Map<string, LabelEntry>();
    const add = (pattern: string, label: { row?: number; column?: number }): void => {
      let entry = entries.get(pattern);
      if (entry === undefined) {
        entry = { pattern, symbolic: !hasWordCharacter(pattern), table: tableNumber, rows: [], columns: [] };
        entries.set(pattern, entry);
      }
      if (label.row !== undefined) entry.rows.push(label.row);
      if (label.column !== undefined) entry.columns.push(label.column);
    };

    for (const label of labels) {
      const pattern = foldLabelText(label.text).trim();
      if (pattern !== "") add(pattern, label);
    }
    const whole = new Set(entries.keys());
    for (const label of labels) {
      const shorter = stripTrailingParenthetical(label.text);
      if (shorter === null) continue;
      const pattern = foldLabelText(shorter).trim();
      if (pattern !== "" && !whole.has(pattern)) add(pattern, label);
    }

    for (const entry of entries.values()) {
      const key = labelKeyAt(entry.pattern, 0);
      const bucket = index.get(key);
      if (bucket === undefined) index.set(key, [entry]);
      else bucket.push(entry);
    }
  });
  return index;
}
