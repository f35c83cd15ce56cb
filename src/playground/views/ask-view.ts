import type {
  CreateParams,
  CreateResult,
  CreateStreamEvent,
  MatchMode,
  Message,
  Source,
  UnsupportedClaim,
  Verified,
} from "../../client/index.js";
import { describeNumberMiss } from "../../core/index.js";
import { h, plural } from "../dom.js";

import { checkedAnswerView, proseAnswerHint, proseDropReason } from "./checked-answer.js";
import { clearError } from "./error-box.js";
import { coverageMeter, usageLine } from "./result-meta.js";
import { answerSegments, reasonInWords, triedInWords } from "./result-text.js";
import { createLatestRunner, showFailure } from "./run-latest.js";
import type { SourcesPanel } from "./sources-panel.js";

/** Elements of the Ask tab; all exist in index.html. */
export interface AskElements {
  form: HTMLFormElement;
  question: HTMLTextAreaElement;
  context: HTMLElement;
  contextText: HTMLElement;
  dropContext: HTMLButtonElement;
  checkNumbers: HTMLSelectElement;
  retry: HTMLInputElement;
  minCoverage: HTMLInputElement;
  allowUngrounded: HTMLInputElement;
  /** Checked: the model answers in prose (`answerFormat: "text"`), checked sentence by sentence. */
  prose: HTMLInputElement;
  /** Opt-in, like the API's `"stream": true`. */
  stream: HTMLInputElement;
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
  result: HTMLElement;
}

/** What the Ask tab needs from the rest of the page. */
export interface AskDependencies {
  /** The package's client, built with the key as typed now. */
  client: () => Verified;
  sources: SourcesPanel;
  model: () => string;
  mode: () => MatchMode;
}

/** The Ask tab's actions. */
export interface AskView {
  /** Runs the current question against the current sources. */
  run(): Promise<void>;
  /**
   * Loads a conversation: the last user message becomes the question, earlier ones are kept as context;
   * `prose`, when given, sets "Answer in prose".
   */
  load(
    messages: readonly Message[],
    sources: readonly Source[],
    origin: string,
    options?: { prose?: boolean },
  ): void;
  /** The sources of the shown result, for the sources column, or null. */
  snapshot(): readonly Source[] | null;
}

/** Wires the Ask tab: the create call and its result with citation chips, dropped claims and coverage. */
// A dropped claim's reason in words; a number-check miss also names, in its tooltip, the number that
// failed and the cells or line it was checked against.
function reasonSpan(item: UnsupportedClaim): HTMLElement {
  const attributes: Record<string, string> = { class: "reason" };
  if (item.detail !== undefined && "number" in item.detail)
    attributes.title = describeNumberMiss(item.detail);
  return h("span", attributes, `— ${reasonInWords(item.reason)}`);
}

export function createAskView(elements: AskElements, dependencies: AskDependencies): AskView {
  const { client, sources } = dependencies;
  let contextMessages: Message[] = [];
  let shownSources: readonly Source[] | null = null;
  const forgetResult = () => {
    shownSources = null;
    sources.showSnapshot(null);
  };
  const runLatest = createLatestRunner(elements, forgetResult);

  function buildRequest(): CreateParams | string {
    const question = elements.question.value.trim();
    if (question === "") return "Type a question first.";
    const model = dependencies.model();
    if (model === "") return "Enter a model id (local runs the built-in model).";
    const request: CreateParams = {
      model,
      messages: [...contextMessages, { role: "user", content: question }],
      sources: sources.getSources(),
      mode: dependencies.mode(),
    };
    const checkNumbers = elements.checkNumbers.value;
    if (checkNumbers === "source" || checkNumbers === "row" || checkNumbers === "quote") {
      request.checkNumbers = checkNumbers;
      // The dropped-claim tooltip names the number that failed and what it was checked against.
      request.explain = true;
    }
    const retry = elements.retry.valueAsNumber;
    if (Number.isFinite(retry) && retry > 0) request.retry = retry;
    const minCoverage = elements.minCoverage.valueAsNumber;
    if (Number.isFinite(minCoverage) && minCoverage > 0) request.minCoverage = minCoverage;
    if (elements.allowUngrounded.checked) request.allowUngrounded = true;
    if (elements.prose.checked) {
      request.answerFormat = "text";
      // Each dropped sentence says which word, name, number or source failed.
      request.explain = true;
    }
    return request;
  }

  async function run(): Promise<void> {
    clearError(elements.error);
    const request = buildRequest();
    if (typeof request === "string") {
      forgetResult();
      showFailure(elements, new Error(request));
      return;
    }
    const started = performance.now();
    await runLatest(
      "Asking…",
      (signal) =>
        elements.stream.checked
          ? streamCreate(request, liveClaims(request.sources, signal), signal)
          : client().create(request, { signal }),
      (result) => {
        shownSources = request.sources;
        renderResult(result, request.sources, performance.now() - started);
      },
    );
  }

  /** Runs a streamed create, handing each event to `onEvent`; resolves with the final result. */
  async function streamCreate(
    request: CreateParams,
    onEvent: (event: CreateStreamEvent) => void,
    signal: AbortSignal,
  ): Promise<CreateResult> {
    const stream = client().stream(request, { signal });
    for await (const event of stream) onEvent(event);
    return stream.finalResult();
  }

  /**
   * Shows each claim as the stream delivers it, highlighting a grounded one's range at once. Claims from
   * before an `attempt` are marked provisional: the best attempt wins, and the result replaces this list.
   */
  function liveClaims(sent: readonly Source[], signal: AbortSignal): (event: CreateStreamEvent) => void {
    let shown: HTMLElement | undefined;
    return (event) => {
      if (signal.aborted || event.type === "done") return;
      if (shown === undefined) {
        sources.showSnapshot(sent);
        shown = h("ol", { class: "live-claims", "aria-live": "polite" });
        elements.result.replaceChildren(
          h(
            "section",
            { class: "result", "aria-label": "Claims so far" },
            h("h3", {}, "Checked so far"),
            shown,
          ),
        );
        elements.result.hidden = false;
      }
      const list = shown;
      if (event.type === "attempt") {
        for (const item of Array.from(list.children)) item.classList.add("provisional");
        list.append(h("li", { class: "attempt" }, `Attempt ${event.attempt}: the best attempt wins`));
        elements.status.textContent = `Asking again (attempt ${event.attempt})…`;
      } else if (event.type === "claim") {
        const citation = event.citation;
        list.append(
          h(
            "li",
            { class: "live-claim ok" },
            "✓ ",
            citation.claim,
            " ",
            h("span", { class: "where" }, citation.source),
          ),
        );
        sources.highlight(citation.source, citation.range);
      } else {
        list.append(
          h(
            "li",
            { class: "live-claim dropped" },
            "✗ ",
            h("del", {}, event.unsupported.claim),
            " ",
            reasonSpan(event.unsupported),
          ),
        );
      }
    };
  }

  function renderResult(result: CreateResult, sent: readonly Source[], elapsedMs: number): void {
    sources.showSnapshot(sent);
    const total = result.citations.length + result.unsupported.length;
    const badges = h(
      "p",
      { class: "badges" },
      result.abstained &&
        h("span", { class: "badge warn", title: "Coverage is below min_coverage" }, "abstained"),
      !result.grounded &&
        h(
          "span",
          { class: "badge warn", title: "A plain answer: nothing in it was checked" },
          "not grounded",
        ),
      result.grounded && !result.abstained && total > 0 && h("span", { class: "badge ok" }, "grounded"),
    );
    // A prose answer comes with the model's answer as written: shown whole, each sentence marked by its
    // verdict and each word no source holds underlined, as the Check tab shows an answer.
    const checked =
      result.answer === undefined || !result.grounded
        ? undefined
        : checkedAnswerView(result.answer, result, sources, "answer-text");
    const chips: HTMLButtonElement[] = [];
    const answer = checked?.view ?? h("p", { class: "answer", id: "answer-text" });
    for (const segment of checked === undefined ? answerSegments(result.text, result.citations) : []) {
      if (segment.kind === "text") {
        answer.append(segment.text);
        continue;
      }
      const citation = result.citations[segment.citationIndex];
      if (citation === undefined) continue;
      const chip = h(
        "button",
        {
          type: "button",
          class: "chip",
          "data-citation": segment.citationIndex,
          title: citation.quote,
          "aria-label": `Citation ${segment.citationIndex + 1}: source ${citation.source}, characters ${citation.range[0]} to ${citation.range[1]}`,
        },
        citation.source,
      );
      const show = () => {
        for (const other of chips) other.classList.toggle("active", other === chip);
        sources.highlight(citation.source, citation.range);
      };
      chip.addEventListener("mouseenter", show);
      chip.addEventListener("focus", show);
      chip.addEventListener("click", show);
      chips.push(chip);
      answer.append(chip);
    }

    const citationList =
      result.citations.length > 0 &&
      h(
        "details",
        { class: "citations" },
        h("summary", {}, `Citations (${result.citations.length})`),
        h(
          "ol",
          {},
          ...result.citations.map((citation) =>
            h(
              "li",
              {},
              h("q", {}, citation.quote),
              " ",
              h("span", { class: "where" }, `${citation.source} · ${citation.range[0]}–${citation.range[1]}`),
            ),
          ),
        ),
      );

    const dropped =
      result.unsupported.length > 0 &&
      h(
        "section",
        { class: "dropped", "aria-labelledby": "dropped-heading" },
        h("h3", { id: "dropped-heading" }, `Dropped claims (${result.unsupported.length})`),
        h(
          "ul",
          { class: "unsupported" },
          ...result.unsupported.map((item) => {
            const tried = triedInWords(item);
            return h(
              "li",
              {},
              h("del", {}, item.claim),
              " ",
              // A prose answer's drop reads as its mark does: what failed, when `explain` said.
              checked === undefined ? reasonSpan(item) : proseDropReason(item),
              tried !== "" && h("span", { class: "tried" }, tried),
            );
          }),
        ),
      );

    elements.result.replaceChildren(
      h(
        "section",
        { class: "result", "aria-label": "Answer" },
        h(
          "div",
          { class: "result-head" },
          checked === undefined
            ? coverageMeter(result.coverage, result.citations.length, total, "claim")
            : coverageMeter(result.coverage, checked.supported, checked.claims, "claim"),
          badges,
        ),
        h("h3", { class: "visually-hidden" }, "Answer"),
        checked !== undefined && h("p", { class: "hint" }, proseAnswerHint),
        answer,
        result.text === "" && h("p", { class: "hint" }, "The answer is empty: no claim could be grounded."),
        // Newcomers read "grounded" as "answered"; one quiet line says what was checked.
        result.grounded &&
          result.citations.length > 0 &&
          h(
            "p",
            { class: "hint grounded-note" },
            "Grounded means each claim quotes a source; it does not mean the question was answered.",
          ),
        citationList,
        dropped,
        usageLine(result.model, result.usage, elapsedMs, result.id),
      ),
    );
    elements.result.hidden = false;
  }

  function load(
    messages: readonly Message[],
    loadedSources: readonly Source[],
    origin: string,
    options: { prose?: boolean } = {},
  ): void {
    if (options.prose !== undefined) elements.prose.checked = options.prose;
    const lastUser = messages.findLastIndex((message) => message.role === "user");
    const question = lastUser < 0 ? "" : (messages[lastUser]?.content ?? "");
    contextMessages = messages.filter((_, index) => index !== lastUser);
    elements.question.value = question;
    sources.setSources(loadedSources);
    shownSources = null;
    elements.result.replaceChildren();
    clearError(elements.error);
    elements.status.textContent = "";
    elements.context.hidden = contextMessages.length === 0;
    elements.contextText.textContent = `Also sends ${plural(contextMessages.length, "earlier message")} from ${origin}.`;
  }

  elements.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  elements.question.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void run();
    }
  });
  elements.dropContext.addEventListener("click", () => {
    contextMessages = [];
    elements.context.hidden = true;
    elements.question.focus();
  });

  return { run, load, snapshot: () => shownSources };
}
