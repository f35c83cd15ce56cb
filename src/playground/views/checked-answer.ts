// A checked answer as the page shows it (the Check tab's result, and a prose answer of the Ask tab): the answer
// as readable markdown, each claim marked in place by its verdict, each word of a kept claim that no source
// holds underlined, and hovering a claim lights its support in the sources column.
import type { Citation, PartialTerm, Range, UnsupportedClaim } from "../../client/index.js";
import { h, percent } from "../dom.js";
import { answerClaimSegments, dropInWords, markdownLayout } from "./result-text.js";
import type { SourcesPanel } from "./sources-panel.js";

/** The line above a prose answer shown as written (Ask and Eval). */
export const proseAnswerHint =
  "The model's answer as written: green sentences are kept, red ones dropped from the answer's text; a wavy underline marks a word no source holds.";

/** A prose answer's dropped sentence in the list under it: why, in the same words as its mark's label. */
export function proseDropReason(item: UnsupportedClaim): HTMLElement {
  return h("span", { class: "reason", title: dropInWords(item) }, `— ${dropInWords(item)}`);
}

/** What a checked answer's view needs of a result: answer mode's entries, their ranges into the answer. */
export interface CheckedEntries {
  citations: readonly Citation[];
  unsupported: readonly UnsupportedClaim[];
  partial?: readonly PartialTerm[] | undefined;
}

/**
 * The answer with each claim marked (`.claim-mark`, `data-verdict` supported, partial or dropped) and each
 * partial word marked inside its claim (`mark.partial-term`), in an element with `id`; with the count of
 * claims (as coverage counts them: a kept claim's clauses are one) and of supported ones.
 */
export function checkedAnswerView(
  answer: string,
  result: CheckedEntries,
  sources: Pick<SourcesPanel, "highlight">,
  id: string,
): { view: HTMLElement; supported: number; claims: number } {
  // Each claim (as coverage counts them: a kept claim's clauses are one) with its verdict, its words and
  // where its support is; a claim cut by markdown blocks is shown as several marks that act as one.
  const claimMarks = new Map<number, HTMLButtonElement[]>();
  const claimsAt: ClaimShown[] = [];
  let supported = 0;
  for (const segment of answerClaimSegments(answer, result.citations, result.unsupported)) {
    if (segment.kind === "text") continue;
    const dropped =
      segment.unsupportedIndex === undefined ? undefined : result.unsupported[segment.unsupportedIndex];
    if (dropped !== undefined) {
      claimsAt.push({
        range: segment.range,
        verdict: "dropped",
        label: `Dropped: ${dropInWords(dropped)}`,
        span: spanOf(dropped),
      });
      continue;
    }
    supported += 1;
    const cited = segment.citationIndexes.map((index) => result.citations[index] as Citation);
    const by = `${cited.map((citation) => `${citation.source} (${percent(citation.support ?? 1)} of its words)`).join(", ")}`;
    const [claimStart, claimEnd] = segment.range;
    // A kept claim whose words are not all held is partly supported: its label names the words.
    const unheld = (result.partial ?? []).filter(
      ({ answerRange }) => answerRange[0] >= claimStart && answerRange[1] <= claimEnd,
    );
    claimsAt.push({
      range: segment.range,
      verdict: unheld.length === 0 ? "supported" : "partial",
      label:
        unheld.length === 0
          ? `Supported by ${by}`
          : `Partly supported by ${by}; not in the sources: ${unheld.map((each) => each.term).join(", ")}`,
      // Support pooled over several sentences of its source is lit all at once.
      span:
        cited[0] === undefined
          ? undefined
          : {
              source: cited[0].source,
              range: cited.filter(({ source }) => source === cited[0]?.source).map(({ range }) => range),
            },
    });
  }
  const claims = claimsAt.length;
  const markClaim = (content: readonly (string | HTMLElement)[], index: number) => {
    const claim = claimsAt[index] as ClaimShown;
    const mark = h(
      "button",
      {
        type: "button",
        class: `claim-mark ${claim.verdict}`,
        "data-verdict": claim.verdict,
        "data-claim": String(index),
        "aria-label": claim.label,
        title: claim.label,
      },
      ...content,
    );
    const show = () => {
      for (const [at, group] of claimMarks) {
        for (const other of group) other.classList.toggle("active", at === index);
      }
      if (claim.span !== undefined) sources.highlight(claim.span.source, claim.span.range);
    };
    mark.addEventListener("mouseenter", show);
    mark.addEventListener("focus", show);
    mark.addEventListener("click", show);
    claimMarks.set(index, [...(claimMarks.get(index) ?? []), mark]);
    return mark;
  };
  const view = renderMarkdown(answer, claimsAt, result.partial ?? [], markClaim, id);
  return { view, supported, claims };
}

/** Where a claim's support (or a dropped claim's best span) is: one range, or the several of pooled support. */
interface Span {
  source: string;
  range: Range | readonly Range[];
}

function spanOf(item: UnsupportedClaim): Span | undefined {
  return item.source === undefined || item.range === undefined
    ? undefined
    : { source: item.source, range: item.range };
}

/** A claim as the answer view shows it. */
interface ClaimShown {
  range: Range;
  verdict: "supported" | "partial" | "dropped";
  /** Its one wording: the mark's label and tooltip (and, for a drop, the list's line). */
  label: string;
  span: Span | undefined;
}

/**
 * The answer as readable markdown (headings, list items, paragraphs; markup hidden, see `markdownLayout`)
 * with each claim's text marked in place, and inside a kept claim each word of `partial` (a word no source
 * holds) marked at its `answer_range`: one walk over the blocks, the claims, the words and the markup, all in
 * order.
 */
function renderMarkdown(
  answer: string,
  claims: readonly ClaimShown[],
  partial: readonly PartialTerm[],
  markClaim: (content: readonly (string | HTMLElement)[], index: number) => HTMLButtonElement,
  id: string,
): HTMLElement {
  const { blocks, markup } = markdownLayout(answer);
  let markupAt = 0;
  // The text of [start, end) without markup; calls come in increasing order, so the markup cursor only moves on.
  const visible = (start: number, end: number): string => {
    let text = "";
    let cursor = start;
    while (markupAt < markup.length && (markup[markupAt] as Range)[1] <= cursor) markupAt += 1;
    for (let at = markupAt; at < markup.length && cursor < end; at += 1) {
      const [from, to] = markup[at] as Range;
      if (from >= end) break;
      if (from > cursor) text += answer.slice(cursor, from);
      cursor = Math.max(cursor, to);
    }
    if (cursor < end) text += answer.slice(cursor, end);
    return text;
  };
  const terms = partialTermsInOrder(partial, answer.length);
  let termAt = 0;
  // The visible text of [start, end) with each partial word in it marked; calls come in increasing order too.
  const pieces = (start: number, end: number): (string | HTMLElement)[] => {
    const content: (string | HTMLElement)[] = [];
    let cursor = start;
    while (termAt < terms.length && (terms[termAt] as PartialTerm).answerRange[1] <= cursor) termAt += 1;
    for (let at = termAt; at < terms.length && cursor < end; at += 1) {
      const { answerRange, term } = terms[at] as PartialTerm;
      const [from, to] = answerRange;
      if (from >= end) break;
      if (from > cursor) content.push(visible(cursor, from));
      const word = visible(Math.max(from, cursor), Math.min(to, end));
      if (word !== "") content.push(partialMark(word, term));
      cursor = Math.min(to, end);
    }
    if (cursor < end) content.push(visible(cursor, end));
    return content.filter((piece) => piece !== "");
  };
  const view = h("div", { class: "answer checked-answer", id });
  let claimAt = 0;
  for (const block of blocks) {
    const element = h(block.kind === "heading" ? "h4" : block.kind === "paragraph" ? "p" : "div", {
      class: `md-${block.kind}`,
    });
    let cursor = block.start;
    while (claimAt < claims.length && (claims[claimAt] as ClaimShown).range[1] <= block.start) claimAt += 1;
    for (let at = claimAt; at < claims.length && cursor < block.end; at += 1) {
      const [start, end] = (claims[at] as ClaimShown).range;
      if (start >= block.end) break;
      if (start > cursor) element.append(...pieces(cursor, start));
      const content = pieces(Math.max(start, cursor), Math.min(end, block.end));
      if (content.length > 0) element.append(markClaim(content, at));
      cursor = Math.min(end, block.end);
    }
    if (cursor < block.end) element.append(...pieces(cursor, block.end));
    view.append(element);
  }
  return view;
}

/**
 * The partial words to mark, in answer order: a word whose range does not fit the answer or overlaps the one
 * before is left out (its text stays as it is) rather than guessed at. O(k log k) for k words.
 */
function partialTermsInOrder(partial: readonly PartialTerm[], answerLength: number): PartialTerm[] {
  const sorted = partial
    .filter(({ answerRange: [start, end] }) => Number.isInteger(start) && Number.isInteger(end))
    .filter(({ answerRange: [start, end] }) => start >= 0 && start < end && end <= answerLength)
    .sort((a, b) => a.answerRange[0] - b.answerRange[0]);
  const kept: PartialTerm[] = [];
  for (const term of sorted) {
    const last = kept.at(-1);
    if (last === undefined || term.answerRange[0] >= last.answerRange[1]) kept.push(term);
  }
  return kept;
}

// A word of a kept claim that no source holds: underlined (a wavy line, not colour alone) and named in its
// tooltip; the claim's own label names the same words for a screen reader.
function partialMark(text: string, term: string): HTMLElement {
  return h(
    "mark",
    { class: "partial-term", "data-term": term, title: `${JSON.stringify(term)}: not in the sources` },
    text,
  );
}
