import type { StepCounter } from "../step-counter.js";
import type { Range } from "../types.js";
import { keptLine } from "./markdown-cut.js";

// The answer's text and coverage once its claims are judged: the removed claims cut out, markdown kept valid.

/** An answer's coverage: kept claims over judged claims, 0 when none was judged. */
export function coverageOf(kept: number, judged: number): number {
  return judged === 0 ? 0 : kept / judged;
}

/**
 * The answer's text without the given claims (their `answerRange`s, in answer order), as a check of the whole
 * answer cuts it: line by line, markdown kept valid (`removeSpans`). O(answer).
 */
export function answerWithoutClaims(answer: string, claimRanges: readonly Range[]): string {
  const dropped: Range[] = [];
  for (const range of claimRanges) pushByLine(answer, range, dropped);
  return removeSpans(answer, dropped);
}

/**
 * `range` cut at its line breaks, each piece pushed to `spans`: a claim whose marker stands on a later line
 * (a line of markers only) spans lines, and every piece of it goes, the marker too. O(range).
 */
export function pushByLine(answer: string, [start, end]: Range, spans: Range[]): void {
  let from = start;
  for (let at = start; at < end; at++) {
    if (answer.charCodeAt(at) !== 10) continue;
    if (at > from) spans.push([from, at]);
    from = at + 1;
  }
  if (end > from) spans.push([from, end]);
}

/**
 * The answer without the removed claims' spans, still valid markdown (`keptLine`): an emphasis whose other
 * half was cut goes too, and a line left with no letter or digit, or with only the bold lead-in of what was
 * cut, goes whole. O(n).
 * `spans` come in increasing order and never cross a line break (`pushByLine` cuts them).
 */
export function removeSpans(answer: string, spans: readonly Range[], counter?: StepCounter): string {
  if (spans.length === 0) return answer;
  const lines: string[] = [];
  let spanIndex = 0;
  let lineStart = 0;
  while (lineStart <= answer.length) {
    const newline = answer.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? answer.length : newline;
    if (counter !== undefined) counter.steps += lineEnd - lineStart + 1;
    const cuts: Range[] = [];
    while (spanIndex < spans.length && (spans[spanIndex] as Range)[0] < lineEnd) {
      const [start, end] = spans[spanIndex] as Range;
      // The spaces after a removed claim go with it.
      let at = end;
      while (at < lineEnd && (answer[at] === " " || answer[at] === "\t")) at++;
      if (counter !== undefined) counter.steps += 1 + at - end;
      cuts.push([start, at]);
      spanIndex++;
    }
    if (cuts.length === 0) lines.push(answer.slice(lineStart, lineEnd));
    else {
      const kept = keptLine(answer, lineStart, lineEnd, cuts, counter);
      if (kept !== null) lines.push(kept);
    }
    if (newline < 0) break;
    lineStart = newline + 1;
  }
  return lines.join("\n");
}
