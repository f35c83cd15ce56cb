import type { EvalAllResult, MatchMode, Verified } from "../../client/index.js";
import { MAX_EVAL_CASES } from "../../limits.js";
import { h, percent, plural } from "../dom.js";
import { type DatasetCase, parseDataset } from "../parse-dataset.js";
import { clearError, showError } from "./error-box.js";

/** Elements of the Eval tab; all exist in index.html. */
export interface EvalElements {
  form: HTMLFormElement;
  file: HTMLInputElement;
  summary: HTMLElement;
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
  /** Opens one case in the Ask tab. */
  openCase: (item: DatasetCase, label: string) => void;
}

/** The Eval tab's actions. */
export interface EvalView {
  run(): Promise<void>;
  /** Uses these cases as the dataset, as if a file named `name` had been loaded. */
  setDataset(cases: readonly DatasetCase[], name: string): void;
}

/** Cases per request: the service's limit; the client's `evalAll` sends bigger datasets in pages. */
const pageSize = MAX_EVAL_CASES;

/** Wires the Eval tab: load a dataset, run it in pages, show the aggregate and a bar per case. */
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
      });
      render(result, cases, model, performance.now() - started);
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
    const bars = result.cases.map((item, index) => {
      const source = cases[index];
      const label = `case ${index + 1}${source?.id === undefined ? "" : ` (${source.id})`}`;
      const correctness =
        item.error !== undefined || item.correct === undefined
          ? ""
          : item.match === undefined
            ? ", not correct"
            : `, correct (${JSON.stringify(item.match.expected)} in claim ${item.match.citation + 1})`;
      const description =
        item.error === undefined
          ? `${label}: coverage ${percent(item.coverage)}, ${item.citations} grounded, ${item.unsupported} dropped${correctness}`
          : `${label}: errored, ${item.error.code}: ${item.error.message}`;
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
      bar.addEventListener("click", () => {
        if (source !== undefined) dependencies.openCase(source, `${datasetName}, ${label}`);
      });
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
        h(
          "p",
          { class: "meta" },
          `model ${model} · ${plural(Math.ceil(cases.length / pageSize), "request")} · ${Math.round(elapsedMs).toLocaleString("en")} ms`,
        ),
      ),
    );
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
