import type {
  CheckParams,
  CheckResult,
  Citation,
  MatchMode,
  PartialTerm,
  Range,
  Source,
  UnsupportedClaim,
  Verified,
} from "../../client/index.js";
import { answerOfChatCompletion } from "../chat-completion-paste.js";
import { h, percent, plural } from "../dom.js";
import { clearError } from "./error-box.js";
import { coverageMeter } from "./result-meta.js";
import { answerClaimSegments, dropInWords, markdownLayout } from "./result-text.js";
import { createLatestRunner, showFailure } from "./run-latest.js";
import type { SourcesPanel } from "./sources-panel.js";

/** Elements of the Check tab; all exist in index.html. */
export interface CheckElements {
  form: HTMLFormElement;
  answer: HTMLTextAreaElement;
  question: HTMLInputElement;
  /** Checked: partly supported sentences are dropped (`partial: "drop"`); else kept with their words named. */
  dropPartial: HTMLInputElement;
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
  result: HTMLElement;
}

/** What the Check tab needs from the rest of the page. */
export interface CheckDependencies {
  /** The package's client, built with the key as typed now. */
  client: () => Verified;
  sources: SourcesPanel;
  mode: () => MatchMode;
}

/** The Check tab's actions. */
export interface CheckView {
  run(): Promise<void>;
  /** Puts an answer (and its sources) in the form, ready to check. */
  load(answer: string, loadedSources: readonly Source[]): void;
  snapshot(): readonly Source[] | null;
}

/**
 * Wires the Check tab: an answer you already have, with citation markers, checked against the sources with no
 * model (`check({ answer })`); each sentence is marked supported or dropped in place, hovering it lights up
 * its support in the source, and each drop says why.
 */
export function createCheckView(elements: CheckElements, dependencies: CheckDependencies): CheckView {
  const { client, sources } = dependencies;
  let shownSources: readonly Source[] | null = null;
  const forgetResult = () => {
    shownSources = null;
    sources.showSnapshot(null);
  };
  const runLatest = createLatestRunner(elements, forgetResult);

  async function run(): Promise<void> {
    clearError(elements.error);
    // A pasted chat.completion JSON is replaced by the answer it holds, which is what is checked.
    const fromCompletion = answerOfChatCompletion(elements.answer.value);
    if (fromCompletion !== undefined) elements.answer.value = fromCompletion;
    const answer = elements.answer.value;
    if (answer.trim() === "") {
      forgetResult();
      showFailure(
        elements,
        new Error("Paste an answer first: prose with markers such as [1] or [source-id]."),
      );
      return;
    }
    const request: CheckParams = {
      sources: sources.getSources(),
      answer,
      mode: dependencies.mode(),
      // Each drop says which word, name, number or source failed.
      explain: true,
      partial: elements.dropPartial.checked ? "drop" : "keep",
    };
    const question = elements.question.value.trim();
    if (question !== "") request.messages = [{ role: "user", content: question }];
    const started = performance.now();
    await runLatest(
      "Checking…",
      (signal) => client().check(request, { signal }),
      (result) => {
        shownSources = request.sources;
        render(result, answer, request.sources, performance.now() - started);
      },
    );
  }

  function render(result: CheckResult, answer: string, sent: readonly Source[], elapsedMs: number): void {
    sources.showSnapshot(sent);
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
    const answerView = renderMarkdown(answer, claimsAt, result.partial ?? [], markClaim);

    const citationList =
      result.citations.length > 0 &&
      h(
        "details",
        { class: "citations" },
        h("summary", {}, `Support (${result.citations.length})`),
        h(
          "ol",
          {},
          ...result.citations.map((citation) =>
            h(
              "li",
              {},
              h("q", {}, citation.quote),
              " ",
              h(
                "span",
                { class: "where" },
                `${citation.source} · ${citation.range[0]}–${citation.range[1]} · ${percent(citation.support ?? 1)} of the words`,
              ),
            ),
          ),
        ),
      );

    const dropped =
      result.unsupported.length > 0 &&
      h(
        "section",
        { class: "dropped", "aria-labelledby": "check-dropped-heading" },
        h("h3", { id: "check-dropped-heading" }, `Dropped claims (${result.unsupported.length})`),
        h("ul", { class: "unsupported" }, ...result.unsupported.map(droppedItem)),
      );

    elements.result.replaceChildren(
      h(
        "section",
        { class: "result", "aria-label": "Checked answer" },
        h("div", { class: "result-head" }, coverageMeter(result.coverage, supported, claims, "claim")),
        h(
          "p",
          { class: "hint" },
          "Green claims are supported, red ones dropped; a wavy underline marks a word no source holds. Hover or focus a claim to see its support in the source.",
        ),
        h("h3", { class: "visually-hidden" }, "Answer"),
        answerView,
        claims === 0 && h("p", { class: "hint" }, "The answer has no claim to check."),
        citationList,
        dropped,
        h(
          "p",
          { class: "meta" },
          `no model call · ${plural(claims, "claim")} · ${Math.round(elapsedMs).toLocaleString("en")} ms`,
        ),
      ),
    );
    elements.result.hidden = false;
  }

  function load(answer: string, loadedSources: readonly Source[]): void {
    elements.answer.value = answer;
    elements.question.value = "";
    sources.setSources(loadedSources);
    shownSources = null;
    elements.result.replaceChildren();
    clearError(elements.error);
    elements.status.textContent = "";
  }

  elements.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  elements.answer.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });

  return { run, load, snapshot: () => shownSources };
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
  const view = h("div", { class: "answer checked-answer", id: "check-answer-text" });
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

// A dropped claim: struck through, and its one wording (what failed, else its reason in words), which is also
// its mark's label and tooltip in the answer.
function droppedItem(item: UnsupportedClaim): HTMLElement {
  const words = dropInWords(item);
  return h(
    "li",
    { "data-reason": item.reason },
    h("del", {}, item.claim),
    " ",
    h("span", { class: "reason", title: words }, `— ${words}`),
  );
}
