import type {
  CheckParams,
  CheckResult,
  Citation,
  MatchMode,
  Range,
  Source,
  UnsupportedClaim,
  Verified,
} from "../../client/index.js";
import { describeDrop } from "../../core/index.js";
import { answerOfChatCompletion } from "../chat-completion-paste.js";
import { h, percent, plural } from "../dom.js";
import { clearError } from "./error-box.js";
import { coverageMeter } from "./result-meta.js";
import { answerClaimSegments, reasonInWords } from "./result-text.js";
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
    const marks: HTMLButtonElement[] = [];
    const markClaim = (
      text: string,
      label: string,
      verdict: "supported" | "partial" | "dropped",
      span?: Span,
    ) => {
      const mark = h(
        "button",
        { type: "button", class: `claim-mark ${verdict}`, "data-verdict": verdict, "aria-label": label },
        text,
      );
      const show = () => {
        for (const other of marks) other.classList.toggle("active", other === mark);
        if (span !== undefined) sources.highlight(span.source, span.range);
      };
      mark.addEventListener("mouseenter", show);
      mark.addEventListener("focus", show);
      mark.addEventListener("click", show);
      marks.push(mark);
      return mark;
    };
    const answerView = h("p", { class: "answer checked-answer", id: "check-answer-text" });
    let supported = 0;
    let claims = 0;
    for (const segment of answerClaimSegments(answer, result.citations, result.unsupported)) {
      if (segment.kind === "text") {
        answerView.append(segment.text);
        continue;
      }
      claims += 1;
      const dropped =
        segment.unsupportedIndex === undefined ? undefined : result.unsupported[segment.unsupportedIndex];
      if (dropped !== undefined) {
        const why = describeDrop(dropped);
        const label = `Dropped: ${why ?? reasonInWords(dropped.reason)}`;
        answerView.append(markClaim(segment.text, label, "dropped", spanOf(dropped)));
        continue;
      }
      supported += 1;
      const cited = segment.citationIndexes.map((index) => result.citations[index] as Citation);
      const by = `${cited.map((citation) => `${citation.source} (${percent(citation.support ?? 1)} of its words)`).join(", ")}`;
      const [claimStart, claimEnd] = segment.range;
      const unheld = (result.partial ?? []).filter(
        ({ answerRange }) => answerRange[0] >= claimStart && answerRange[1] <= claimEnd,
      );
      const label =
        unheld.length === 0
          ? `Supported by ${by}`
          : `Partly supported by ${by}; no source holds: ${unheld.map((each) => each.term).join(", ")}`;
      answerView.append(
        markClaim(segment.text, label, unheld.length === 0 ? "supported" : "partial", cited[0]),
      );
    }

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
        h("h3", { id: "check-dropped-heading" }, `Dropped sentences (${result.unsupported.length})`),
        h("ul", { class: "unsupported" }, ...result.unsupported.map(droppedItem)),
      );

    elements.result.replaceChildren(
      h(
        "section",
        { class: "result", "aria-label": "Checked answer" },
        h("div", { class: "result-head" }, coverageMeter(result.coverage, supported, claims, "sentence")),
        h(
          "p",
          { class: "hint" },
          "Green sentences are supported, red ones dropped. Hover or focus a sentence to see its support in the source.",
        ),
        h("h3", { class: "visually-hidden" }, "Answer"),
        answerView,
        claims === 0 && h("p", { class: "hint" }, "The answer has no sentence to check."),
        citationList,
        dropped,
        h(
          "p",
          { class: "meta" },
          `no model call · ${plural(claims, "sentence")} · ${Math.round(elapsedMs).toLocaleString("en")} ms`,
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

/** Where a claim's support (or a dropped claim's best span) is. */
interface Span {
  source: string;
  range: Range;
}

function spanOf(item: UnsupportedClaim): Span | undefined {
  return item.source === undefined || item.range === undefined
    ? undefined
    : { source: item.source, range: item.range };
}

// A dropped sentence: struck through, and what failed (the detail `explain` asked for), else its reason in
// words; the reason in words is also its tooltip.
function droppedItem(item: UnsupportedClaim): HTMLElement {
  return h(
    "li",
    { "data-reason": item.reason },
    h("del", {}, item.claim),
    " ",
    h(
      "span",
      { class: "reason", title: reasonInWords(item.reason) },
      `— ${describeDrop(item) ?? reasonInWords(item.reason)}`,
    ),
  );
}
