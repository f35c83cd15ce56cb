import type {
  CheckParams,
  CheckResult,
  MatchMode,
  Source,
  UnsupportedClaim,
  Verified,
} from "../../client/index.js";
import { answerOfChatCompletion } from "../chat-completion-paste.js";
import { h, percent, plural } from "../dom.js";
import { checkedAnswerView } from "./checked-answer.js";
import { clearError } from "./error-box.js";
import { coverageMeter } from "./result-meta.js";
import { dropInWords } from "./result-text.js";
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
    const {
      view: answerView,
      supported,
      claims,
    } = checkedAnswerView(answer, result, sources, "check-answer-text");

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
