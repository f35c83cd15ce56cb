import type { EvalAllCaseResult, EvalAllResult, MatchMode, Verified } from "../../client/index.js";
import { MAX_EVAL_CASES } from "../../limits.js";
import { append, h, percent, plural } from "../dom.js";
import { type DatasetCase, parseDataset } from "../parse-dataset.js";
import { checkedAnswerView, proseAnswerHint, proseDropReason } from "./checked-answer.js";
import { clearError, showError } from "./error-box.js";

/** Elements of the Eval tab; all exist in index.html. */
export interface EvalElements {
  form: HTMLFormElement;
  file: HTMLInputElement;
  summary: HTMLElement;
  /** Checked: each case is answered in prose (`answerFormat: "text"`) and its answer shown as written. */
  prose: HTMLInputElement;
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
  result: HTMLElement;
}

/** What the Eval tab needs from the rest of the page. */
export interface EvalDependencies {
  /** The package's client, built with the key as typed now. */
  client: () => Verified;
  model: () => string;
  mode: () => MatchMode;
  /** Opens one case in the Ask tab; `prose` when the eval asked for prose answers. */
  openCase: (item: DatasetCase, label: string, options: { prose: boolean }) => void;
}

/** The Eval tab's actions. */
export interface EvalView {
  run(): Promise<void>;
  /** Uses these cases as the dataset, as if a file named `name` had been loaded. */
  setDataset(cases: readonly DatasetCase[], name: string): void;
}

/** Cases per request: the service's limit; the client's `evalAll` sends bigger datasets in pages. */
const pageSize = MAX_EVAL_CASES;

/** The Eval tab has no sources column (each case has its own sources): hovering a claim lights nothing. */
const noSourcesColumn = { highlight: () => false };

/**
 * Wires the Eval tab: load a dataset, run it in pages, show the aggregate and a bar per case; with prose
 * answers, each case's answer as written under the chart, marked as the Check tab marks an answer.
 */
export function createEvalView(elements: EvalElements, dependencies: EvalDependencies): EvalView {
  let dataset: readonly DatasetCase[] = [];
  let datasetName = "";
  let running = false;

  function setDataset(cases: readonly DatasetCase[], name: string): void {
    dataset = cases;
    datasetName = name;
    elements.summary.textContent = `${plural(cases.length, "case")} loaded from ${name}.`;
    elements.result.replaceChildren();
    clearError(elements.error);
  }

  async function loadFile(file: File): Promise<void> {
    clearError(elements.error);
    const parsed = parseDataset(await file.text(), file.name);
    if (!parsed.ok) {
      dataset = [];
      elements.summary.textContent = `Could not load ${file.name}.`;
      showError(elements.error, new Error(`${file.name}: ${parsed.error}`));
      return;
    }
    setDataset(parsed.cases, file.name);
  }

  async function run(): Promise<void> {
    if (running) return;
    clearError(elements.error);
    if (dataset.length === 0) {
      showError(elements.error, new Error("Load a dataset first (.json or .jsonl), or try the sample."));
      return;
    }
    const cases = dataset;
    const model = dependencies.model();
    const mode = dependencies.mode();
    const prose = elements.prose.checked;
    running = true;
    elements.submit.disabled = true;
    const started = performance.now();
    const progressText = (done: number) =>
      cases.length <= pageSize
        ? `Running ${plural(cases.length, "case")}…`
        : `Running cases ${done + 1}–${Math.min(done + pageSize, cases.length)} of ${cases.length}…`;
    elements.status.textContent = progressText(0);
    try {
      // One page at a time, as the page always did: a rate limit on a gateway model then stops one request.
      const result = await dependencies.client().evalAll({
        model,
        mode,
        cases: [...cases],
        concurrency: 1,
        onProgress: ({ done, total }) => {
          if (done < total) elements.status.textContent = progressText(done);
        },
        // Prose answers come back whole (`details`), each dropped sentence saying what failed (`explain`).
        ...(prose ? { answerFormat: "text", details: true, explain: true } : {}),
      });
      render(result, cases, model, prose, performance.now() - started);
      elements.status.textContent = "Done.";
    } catch (error) {
      elements.status.textContent = "";
      showError(elements.error, error);
    } finally {
      running = false;
      elements.submit.disabled = false;
    }
  }

  function render(
    result: EvalAllResult,
    cases: readonly DatasetCase[],
    model: string,
    prose: boolean,
    elapsedMs: number,
  ): void {
    const { aggregate, usage } = result;
    const figures: [string, string][] = [
      ["Cases", String(aggregate.n)],
      ["Errored", String(aggregate.errored)],
      ["Coverage mean", percent(aggregate.coverageMean)],
      ["Unsupported rate", percent(aggregate.unsupportedRate)],
      ...(aggregate.correctRate === undefined
        ? []
        : [["Correct rate", percent(aggregate.correctRate)] as [string, string]]),
      ["Model calls", usage.modelCalls.toLocaleString("en")],
      ["Tokens", usage.totalTokens.toLocaleString("en")],
    ];
    const showNumbers = result.cases.length <= 40;
    const open = (index: number) => {
      const source = cases[index];
      if (source !== undefined)
        dependencies.openCase(source, `${datasetName}, ${caseLabel(cases, index)}`, { prose });
    };
    const bars = result.cases.map((item, index) => {
      const description = describeCase(cases, item, index);
      const marks = item.error === undefined && item.correct === false ? " incorrect" : "";
      const bar = h(
        "button",
        {
          type: "button",
          class: item.error === undefined ? `bar${marks}` : "bar errored",
          title: description,
          "aria-label": `${description}. Open in Ask.`,
          "data-case": index,
        },
        h("span", { class: "bar-track" }, h("span", { class: "bar-fill" })),
        h(
          "span",
          { class: "bar-label", "aria-hidden": "true" },
          showNumbers ? (item.error === undefined ? index + 1 : "!") : "",
        ),
      );
      // Set through the CSSOM: the page's CSP forbids inline style attributes.
      bar.style.setProperty("--coverage", String(item.error === undefined ? item.coverage : 1));
      bar.addEventListener("click", () => open(index));
      return h("li", {}, bar);
    });
    elements.result.replaceChildren(
      h(
        "section",
        { class: "result", "aria-label": "Evaluation" },
        h(
          "dl",
          { class: "aggregate" },
          ...figures.map(([name, value]) => h("div", {}, h("dt", {}, name), h("dd", {}, value))),
        ),
        h(
          "figure",
          { class: "chart" },
          h(
            "figcaption",
            {},
            "Coverage per case",
            aggregate.errored > 0 && h("span", { class: "legend-errored" }, " · hatched: errored"),
            result.cases.some((item) => item.error === undefined && item.correct === false) &&
              h("span", { class: "legend-incorrect" }, " · outlined red: not correct"),
            " · choose a case to open it in Ask",
          ),
          h(
            "div",
            { class: "chart-body" },
            h(
              "span",
              { class: "axis", "aria-hidden": "true" },
              h("span", {}, "100%"),
              h("span", {}, "50%"),
              h("span", {}, "0%"),
            ),
            h("ol", { class: "bars" }, ...bars),
          ),
        ),
        prose && caseAnswers(result, cases, open),
        h(
          "p",
          { class: "meta" },
          `model ${model} · ${plural(Math.ceil(cases.length / pageSize), "request")} · ${Math.round(elapsedMs).toLocaleString("en")} ms`,
        ),
      ),
    );
  }

  function caseLabel(cases: readonly DatasetCase[], index: number): string {
    const id = cases[index]?.id;
    return `case ${index + 1}${id === undefined ? "" : ` (${id})`}`;
  }

  function describeCase(cases: readonly DatasetCase[], item: EvalAllCaseResult, index: number): string {
    const label = caseLabel(cases, index);
    if (item.error !== undefined) return `${label}: errored, ${item.error.code}: ${item.error.message}`;
    const correctness =
      item.correct === undefined
        ? ""
        : item.match === undefined
          ? ", not correct"
          : `, correct (${JSON.stringify(item.match.expected)} in claim ${item.match.citation + 1})`;
    return `${label}: coverage ${percent(item.coverage)}, ${item.citations} grounded, ${item.unsupported} dropped${correctness}`;
  }

  /**
   * Each case's prose answer, one disclosure per case, drawn when first opened (a dataset of thousands of
   * cases draws only what is looked at).
   */
  function caseAnswers(
    result: EvalAllResult,
    cases: readonly DatasetCase[],
    open: (index: number) => void,
  ): HTMLElement {
    const items = result.cases.map((item, index) => {
      const body = h("div", { class: "case-answer-body" });
      const disclosure = h(
        "details",
        { class: "case-answer", "data-case": index },
        h("summary", {}, describeCase(cases, item, index)),
        body,
      );
      disclosure.addEventListener("toggle", () => {
        if (!disclosure.open || body.childElementCount > 0) return;
        const openInAsk = h("button", { type: "button", class: "open-in-ask" }, "Open in Ask");
        openInAsk.addEventListener("click", () => open(index));
        append(body, ...caseAnswer(item, index), openInAsk);
      });
      return h("li", {}, disclosure);
    });
    return h(
      "section",
      { class: "case-answers", "aria-labelledby": "case-answers-heading" },
      h("h3", { id: "case-answers-heading" }, "Answers"),
      h("p", { class: "hint" }, proseAnswerHint),
      h("ol", {}, ...items),
    );
  }

  function caseAnswer(item: EvalAllCaseResult, index: number): (HTMLElement | false)[] {
    if (item.error !== undefined) return [h("p", { class: "reason" }, item.error.message)];
    const details = item.result;
    if (details === undefined) {
      return [
        h(
          "p",
          { class: "hint" },
          "This answer is longer than its share of the eval's details; open the case in Ask to see it.",
        ),
      ];
    }
    const checked =
      details.answer === undefined || !details.grounded
        ? undefined
        : checkedAnswerView(details.answer, details, noSourcesColumn, `eval-answer-${index}`);
    return [
      checked?.view ?? h("p", { class: "answer", id: `eval-answer-${index}` }, details.text),
      details.text === "" && h("p", { class: "hint" }, "The answer is empty: no claim could be grounded."),
      details.unsupported.length > 0 &&
        h(
          "ul",
          { class: "unsupported", "aria-label": "Dropped sentences" },
          ...details.unsupported.map((dropped) =>
            h("li", {}, h("del", {}, dropped.claim), " ", proseDropReason(dropped)),
          ),
        ),
    ];
  }

  elements.file.addEventListener("change", () => {
    const file = elements.file.files?.[0];
    if (file !== undefined) void loadFile(file);
  });
  elements.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });

  return { run, setDataset };
}
