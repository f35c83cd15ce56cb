// Cutting dropped claims out of an answer's markdown so that what is left stays valid markdown: an emphasis
// (`**`, `__`, `*`, `_`) whose other half was cut goes too, and a bold lead-in whose sentence was cut goes with
// it (docs/matching.md#answers).
import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";
import { isEmphasisOnly } from "./framing.js";

const WORD_CHAR = /[\p{L}\p{N}]/u;
// A list bullet or number, or a quote mark, that opens a line.
const LINE_MARK = /^[ \t]{0,8}(?:[-*+]|\d{1,3}[.)]|>)[ \t]+/;

/** A run of emphasis characters in a line: where it stands, and its kind (`**`, `_`, …). */
interface Delimiter {
  start: number;
  end: number;
  kind: string;
}

/**
 * The line `[lineStart, lineEnd)` of `text` with `cuts` (increasing, inside the line) removed, and with each
 * emphasis delimiter whose partner was removed removed as well. Returns null when nothing of the line's claims
 * is left (no letter or digit, or only a bold lead-in whose sentence was cut). O(line).
 */
export function keptLine(
  text: string,
  lineStart: number,
  lineEnd: number,
  cuts: readonly Range[],
  counter?: StepCounter,
): string | null {
  const delimiters = delimitersOf(text, lineStart, lineEnd);
  // The line read for its delimiters, then copied, and the copy read by the word and lead-in checks.
  if (counter !== undefined) counter.steps += 4 * (lineEnd - lineStart) + delimiters.length;
  // Whether each delimiter lies in a cut: both lists are in order, so one merge pass.
  const cutAt = new Set<Delimiter>();
  let cut = 0;
  for (const delimiter of delimiters) {
    while (cut < cuts.length && (cuts[cut] as Range)[1] <= delimiter.start) {
      cut++;
      if (counter !== undefined) counter.steps += 1;
    }
    if (cut < cuts.length && (cuts[cut] as Range)[0] <= delimiter.start) cutAt.add(delimiter);
  }
  const drop: Range[] = [...cuts];
  // Delimiters pair left to right by kind; a pair with one half cut loses the other.
  const open = new Map<string, Delimiter>();
  for (const delimiter of delimiters) {
    const opener = open.get(delimiter.kind);
    if (opener === undefined) {
      open.set(delimiter.kind, delimiter);
      continue;
    }
    open.delete(delimiter.kind);
    const [first, second] = [cutAt.has(opener), cutAt.has(delimiter)];
    if (first !== second) {
      const other = first ? delimiter : opener;
      drop.push([other.start, other.end]);
    }
  }
  drop.sort((a, b) => a[0] - b[0]);
  if (counter !== undefined) counter.steps += drop.length * Math.ceil(Math.log2(drop.length + 1));
  let kept = "";
  let at = lineStart;
  for (const [start, end] of drop) {
    if (end <= at) continue;
    kept += text.slice(at, Math.max(at, start));
    at = end;
  }
  kept += text.slice(at, lineEnd);
  if (!WORD_CHAR.test(kept)) return null;
  // A bold lead-in left alone (`- **Refunds.**`) introduced what was cut.
  const mark = LINE_MARK.exec(kept);
  if (isEmphasisOnly(mark === null ? kept : kept.slice(mark[0].length))) return null;
  // A closing delimiter left after the spaces of a cut claim (`**A. **`) closes right after the text again.
  return kept.trimEnd().replace(SPACED_CLOSER, "$1");
}

const SPACED_CLOSER = /(?<=[^\s*_])[ \t]{1,64}([*_]{1,3})$/;

// The emphasis delimiters of a line: runs of `*` or `_` (up to three) that are not a list bullet, not inside
// a word (`snake_case`), and not standing alone between spaces (`2 * 3`). O(line).
function delimitersOf(text: string, lineStart: number, lineEnd: number): Delimiter[] {
  const delimiters: Delimiter[] = [];
  const mark = LINE_MARK.exec(text.slice(lineStart, Math.min(lineEnd, lineStart + 16)));
  let at = lineStart + (mark === null ? 0 : mark[0].length);
  while (at < lineEnd) {
    const character = text[at] as string;
    if (character !== "*" && character !== "_") {
      at++;
      continue;
    }
    let end = at + 1;
    while (end < lineEnd && text[end] === character) end++;
    const before = at > lineStart ? (text[at - 1] as string) : " ";
    const after = end < lineEnd ? (text[end] as string) : " ";
    const spaced = /\s/.test(before) && /\s/.test(after);
    const inWord = character === "_" && WORD_CHAR.test(before) && WORD_CHAR.test(after);
    if (end - at <= 3 && !spaced && !inWord) delimiters.push({ start: at, end, kind: text.slice(at, end) });
    at = end;
  }
  return delimiters;
}
