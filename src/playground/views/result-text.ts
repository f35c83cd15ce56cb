// How a result reads on the page: the answer cut at its citation markers, a source cut at a cited range,
// and reason codes in words.
import type { Citation, Range, UnsupportedClaim } from "../../client/index.js";
import { describeDrop } from "../../core/index.js";

/** A run of answer text, or one `[id]` marker tied to the citation it stands for. */
export type AnswerSegment =
  | { kind: "text"; text: string }
  | { kind: "citation"; citationIndex: number; label: string };

/**
 * Cuts a create result's `text` into plain runs and `[sourceId]` markers. The n-th marker naming a source
 * stands for the n-th citation of that source, in order. Brackets that name no cited source stay text, and a
 * citation whose marker is missing from the text is appended as a marker at the end, so every citation
 * can be reached from the answer.
 */
export function answerSegments(text: string, citations: readonly Citation[]): AnswerSegment[] {
  const pending = new Map<string, number[]>();
  for (const [index, citation] of citations.entries()) {
    const queue = pending.get(citation.source);
    if (queue === undefined) pending.set(citation.source, [index]);
    else queue.push(index);
  }
  const segments: AnswerSegment[] = [];
  const pushText = (run: string) => {
    if (run === "") return;
    const last = segments.at(-1);
    if (last?.kind === "text") last.text += run;
    else segments.push({ kind: "text", text: run });
  };
  const marker = /\[([^[\]\n]+)\]/g;
  let cursor = 0;
  for (const match of text.matchAll(marker)) {
    const citationIndex = pending.get(match[1] as string)?.shift();
    if (citationIndex === undefined) continue;
    pushText(text.slice(cursor, match.index));
    segments.push({ kind: "citation", citationIndex, label: match[0] });
    cursor = match.index + match[0].length;
  }
  pushText(text.slice(cursor));
  const unplaced = [...pending.values()].flat().sort((a, b) => a - b);
  for (const citationIndex of unplaced) {
    const citation = citations[citationIndex] as Citation;
    pushText(segments.length === 0 ? "" : " ");
    segments.push({ kind: "citation", citationIndex, label: `[${citation.source}]` });
  }
  return segments;
}

/** A run of a checked answer: text between claims, or one claim with its verdict and what it refers to. */
export type AnswerClaimSegment =
  | { kind: "text"; text: string }
  | {
      kind: "claim";
      text: string;
      range: Range;
      /** Indexes into the result's `citations` (a kept claim may cite several sources). */
      citationIndexes: number[];
      /** Index into the result's `unsupported` for a dropped claim; undefined when the claim is kept. */
      unsupportedIndex: number | undefined;
    };

/**
 * Cuts the answer sent to answer-mode check into plain runs and its claims, by each citation's and each
 * dropped claim's `answerRange`. Citations with the same range are one claim, and so are citations whose
 * ranges touch (a kept claim cut into clauses: `… 2024 [a], and … [b].` gives one citation per clause, end to
 * end), so the claims counted here are the ones coverage counts. A range that does not fit the answer or
 * overlaps an earlier claim is left out (its text stays plain) rather than guessed at.
 */
export function answerClaimSegments(
  answer: string,
  citations: readonly Citation[],
  unsupported: readonly UnsupportedClaim[],
): AnswerClaimSegment[] {
  const claims = new Map<string, Extract<AnswerClaimSegment, { kind: "claim" }>>();
  const claimAt = (range: Range) => {
    const key = `${range[0]}:${range[1]}`;
    let claim = claims.get(key);
    if (claim === undefined) {
      claim = { kind: "claim", text: "", range, citationIndexes: [], unsupportedIndex: undefined };
      claims.set(key, claim);
    }
    return claim;
  };
  // A kept claim's clauses come in order, each range starting where the one before ended.
  let open: { claim: Extract<AnswerClaimSegment, { kind: "claim" }>; end: number } | undefined;
  for (const [index, citation] of citations.entries()) {
    const range = citation.answerRange;
    if (range === undefined) continue;
    const same = claims.get(`${range[0]}:${range[1]}`);
    if (same === undefined && open !== undefined && range[0] === open.end && range[1] > range[0]) {
      claims.delete(`${open.claim.range[0]}:${open.claim.range[1]}`);
      open.claim.range = [open.claim.range[0], range[1]];
      claims.set(`${open.claim.range[0]}:${open.claim.range[1]}`, open.claim);
      open.claim.citationIndexes.push(index);
      open.end = range[1];
      continue;
    }
    const claim = claimAt(range);
    claim.citationIndexes.push(index);
    open = { claim, end: claim.range[1] };
  }
  for (const [index, item] of unsupported.entries())
    if (item.answerRange !== undefined) claimAt(item.answerRange).unsupportedIndex = index;
  const ordered = [...claims.values()].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1]);
  const segments: AnswerClaimSegment[] = [];
  let cursor = 0;
  for (const claim of ordered) {
    const [start, end] = claim.range;
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < cursor || end < start) continue;
    if (end > answer.length) continue;
    if (start > cursor) segments.push({ kind: "text", text: answer.slice(cursor, start) });
    segments.push({ ...claim, text: answer.slice(start, end) });
    cursor = end;
  }
  if (cursor < answer.length) segments.push({ kind: "text", text: answer.slice(cursor) });
  return segments;
}

/** A source text cut into the part before a range, the range itself and the part after it. */
export interface HighlightParts {
  before: string;
  highlighted: string;
  after: string;
}

/**
 * Splits `text` at the half-open range `[start, end)`. The range comes from the service's deterministic
 * match, so the quote is never searched for again: a range that does not fit the text (stale or
 * malformed) gives null rather than a guess.
 */
export function highlightRange(text: string, range: Range): HighlightParts | null {
  const [start, end] = range;
  if (!Number.isInteger(start) || !Number.isInteger(end)) return null;
  if (start < 0 || end < start || end > text.length) return null;
  return { before: text.slice(0, start), highlighted: text.slice(start, end), after: text.slice(end) };
}

/** A piece of a source text: highlighted or not. */
export interface HighlightPiece {
  text: string;
  highlighted: boolean;
}

/**
 * Cuts `text` into pieces, each range of `ranges` highlighted (overlapping or touching ranges as one), in
 * text order: a claim's support pooled over several sentences of one source shows them all. Null when any
 * range does not fit the text, as for `highlightRange`. O(n + k log k) for k ranges.
 */
export function highlightPieces(text: string, ranges: readonly Range[]): HighlightPiece[] | null {
  if (ranges.some((range) => highlightRange(text, range) === null)) return null;
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const pieces: HighlightPiece[] = [];
  let cursor = 0;
  let open: [number, number] | undefined;
  const close = () => {
    if (open === undefined) return;
    if (open[0] > cursor) pieces.push({ text: text.slice(cursor, open[0]), highlighted: false });
    pieces.push({ text: text.slice(open[0], open[1]), highlighted: true });
    cursor = open[1];
    open = undefined;
  };
  for (const [start, end] of sorted) {
    if (open !== undefined && start <= open[1]) open[1] = Math.max(open[1], end);
    else {
      close();
      open = [start, end];
    }
  }
  close();
  if (cursor < text.length) pieces.push({ text: text.slice(cursor), highlighted: false });
  return pieces;
}

/** A block of a markdown answer as shown: a paragraph, a heading or a list item, `[start, end)` in the answer. */
export interface MarkdownBlock {
  kind: "paragraph" | "heading" | "bullet" | "numbered";
  start: number;
  end: number;
}

/**
 * How a markdown answer is shown readably, without moving a single offset: its blocks (paragraphs split at
 * blank lines, `#` headings, `-`/`*`/`+` and `1.` list items, one per line) and the ranges of markup that is
 * not shown (a heading's `#`s, a bullet, `**` and `__`, backticks, and a link's `[` and `](url)`, so the
 * link's text stays). Citation markers such as `[1]` are text, not links. One pass over the answer, plus
 * one right-to-left pass for the brackets: linear.
 */
export function markdownLayout(answer: string): { blocks: MarkdownBlock[]; markup: Range[] } {
  const blocks: MarkdownBlock[] = [];
  const markup: Range[] = [];
  // For each index, the next `]` and the next `[` at or after it, and the next `)`: found in one pass.
  const nextClose = new Int32Array(answer.length + 1).fill(-1);
  const nextOpen = new Int32Array(answer.length + 1).fill(-1);
  const nextParen = new Int32Array(answer.length + 1).fill(-1);
  for (let index = answer.length - 1; index >= 0; index -= 1) {
    const char = answer[index];
    nextClose[index] = char === "]" ? index : (nextClose[index + 1] as number);
    nextOpen[index] = char === "[" ? index : (nextOpen[index + 1] as number);
    nextParen[index] = char === ")" ? index : (nextParen[index + 1] as number);
  }
  let paragraph: MarkdownBlock | undefined;
  let lineStart = 0;
  while (lineStart <= answer.length) {
    let lineEnd = answer.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = answer.length;
    const textEnd = lineEnd > lineStart && answer[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
    const line = answer.slice(lineStart, textEnd);
    const prefix = /^#{1,6}[ \t]+/.exec(line) ?? /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+/.exec(line);
    if (line.trim() === "") paragraph = undefined;
    else if (prefix !== null) {
      paragraph = undefined;
      const kind = line.startsWith("#") ? "heading" : /\d/.test(prefix[0]) ? "numbered" : "bullet";
      // A numbered item keeps its number: only a heading's `#`s and a bullet are markup.
      if (kind !== "numbered") markup.push([lineStart, lineStart + prefix[0].length]);
      blocks.push({ kind, start: lineStart, end: textEnd });
    } else if (paragraph === undefined) {
      paragraph = { kind: "paragraph", start: lineStart, end: textEnd };
      blocks.push(paragraph);
    } else paragraph.end = textEnd;
    for (let index = lineStart; index < textEnd; index += 1) {
      const char = answer[index];
      if ((char === "*" || char === "_") && answer[index + 1] === char) {
        markup.push([index, index + 2]);
        index += 1;
      } else if (char === "`") markup.push([index, index + 1]);
      else if (char === "[") {
        const close = nextClose[index + 1] as number;
        const inner = nextOpen[index + 1] as number;
        const paren = close < 0 ? -1 : (nextParen[close] as number);
        if (close < 0 || close >= textEnd || (inner >= 0 && inner < close)) continue;
        if (answer[close + 1] !== "(" || paren < 0 || paren >= textEnd) continue;
        markup.push([index, index + 1], [close, paren + 1]);
        index = paren;
      }
    }
    lineStart = lineEnd + 1;
  }
  markup.sort((a, b) => a[0] - b[0]);
  return { blocks, markup };
}

/**
 * A dropped claim's one wording, the same on its mark in the answer (label and tooltip) and in the list of
 * drops: what failed, when `explain` said (`"Berlin" is in no source …`), else its reason in words.
 */
export function dropInWords(item: UnsupportedClaim): string {
  return describeDrop(item) ?? reasonInWords(item.reason);
}

const words: Record<string, string> = {
  quote_not_found: "quote not found in the source",
  unknown_source: "cites a source that was not supplied",
  number_not_found: "a number is not in the cited source/cell",
  not_found: "not found in any source",
  no_support: "no span of the sources supports it",
  partial_support: "its sources hold only part of it",
  entity_not_found: "names something no source mentions",
  wrong_source: "its cited source does not support it; another does",
};

/** The reason code of a dropped claim or field, said in words; an unknown code is shown as it is. */
export function reasonInWords(reason: string): string {
  return Object.hasOwn(words, reason) ? (words[reason] as string) : reason;
}

/**
 * What the model tried for a dropped claim, in words: `tried "…" in policy · near match "…" at 21–47`; ""
 * when it gave neither a quote nor a source.
 */
export function triedInWords(item: UnsupportedClaim): string {
  const parts: string[] = [];
  if (item.quote !== undefined) parts.push(`tried ${JSON.stringify(item.quote)}`);
  if (item.source !== undefined) parts.push(`${parts.length === 0 ? "named" : "in"} ${item.source}`);
  const tried = parts.join(" ");
  if (item.near === undefined) return tried;
  const near = `near match ${JSON.stringify(item.near.quote)} at ${item.near.range[0]}–${item.near.range[1]}`;
  return tried === "" ? near : `${tried} · ${near}`;
}
