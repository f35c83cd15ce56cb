import type { MatchMode } from "../client/index.js";
import { byId } from "./dom.js";
import { loadModelOptions } from "./model-options.js";
import { pageClient } from "./page-client.js";
import { sampleAnswer, sampleDataset, sampleFields, sampleQuestion, sampleSources } from "./sample.js";
import {
  bindApiKeyField,
  createAskView,
  createCheckView,
  createEvalView,
  createExtractView,
  createSourcesPanel,
} from "./views/index.js";

type TabName = "ask" | "extract" | "eval" | "check";

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

const keyInput = byId<HTMLInputElement>("api-key");
const getKey = bindApiKeyField(keyInput, sessionStore());
// The package's own client, aimed at wherever this page was served from (path prefix included).
const client = pageClient({ getKey, pageUrl: document.baseURI });
const modelInput = byId<HTMLInputElement>("model");
const modeSelect = byId<HTMLSelectElement>("mode");
const model = () => modelInput.value.trim();
// The model box lists what the service accepts (`GET /v1/models`), again once a key is typed.
const modelList = byId<HTMLDataListElement>("model-options");
void loadModelOptions(client(), modelList);
keyInput.addEventListener("change", () => void loadModelOptions(client(), modelList));
const mode = () => modeSelect.value as MatchMode;

const sources = createSourcesPanel({
  panel: byId("sources-panel"),
  editor: byId("sources-editor"),
  list: byId("source-list"),
  viewer: byId("sources-viewer"),
  addButton: byId<HTMLButtonElement>("add-source"),
  fileInput: byId<HTMLInputElement>("source-files"),
  editToggle: byId<HTMLButtonElement>("sources-edit"),
  viewToggle: byId<HTMLButtonElement>("sources-view"),
  total: byId("sources-total"),
  notice: byId("sources-notice"),
});

const ask = createAskView(
  {
    form: byId<HTMLFormElement>("ask-form"),
    question: byId<HTMLTextAreaElement>("question"),
    context: byId("ask-context"),
    contextText: byId("ask-context-text"),
    dropContext: byId<HTMLButtonElement>("ask-context-drop"),
    checkNumbers: byId<HTMLSelectElement>("check-numbers"),
    retry: byId<HTMLInputElement>("retry"),
    minCoverage: byId<HTMLInputElement>("min-coverage"),
    allowUngrounded: byId<HTMLInputElement>("allow-ungrounded"),
    prose: byId<HTMLInputElement>("ask-prose"),
    stream: byId<HTMLInputElement>("ask-stream"),
    submit: byId<HTMLButtonElement>("ask-submit"),
    status: byId("ask-status"),
    error: byId("ask-error"),
    result: byId("ask-result"),
  },
  { client, sources, model, mode },
);

const extract = createExtractView(
  {
    form: byId<HTMLFormElement>("extract-form"),
    rows: byId("field-rows"),
    addField: byId<HTMLButtonElement>("add-field"),
    submit: byId<HTMLButtonElement>("extract-submit"),
    status: byId("extract-status"),
    error: byId("extract-error"),
    result: byId("extract-result"),
  },
  { client, sources, model, mode },
);

const evaluation = createEvalView(
  {
    form: byId<HTMLFormElement>("eval-form"),
    file: byId<HTMLInputElement>("dataset-file"),
    summary: byId("dataset-summary"),
    prose: byId<HTMLInputElement>("eval-prose"),
    submit: byId<HTMLButtonElement>("eval-submit"),
    status: byId("eval-status"),
    error: byId("eval-error"),
    result: byId("eval-result"),
  },
  {
    client,
    model,
    mode,
    openCase: (item, label, options) => {
      selectTab("ask");
      ask.load(item.messages, item.sources, label, options);
      void ask.run();
    },
  },
);

const check = createCheckView(
  {
    form: byId<HTMLFormElement>("check-form"),
    answer: byId<HTMLTextAreaElement>("check-answer"),
    question: byId<HTMLInputElement>("check-question"),
    dropPartial: byId<HTMLInputElement>("check-drop-partial"),
    submit: byId<HTMLButtonElement>("check-submit"),
    status: byId("check-status"),
    error: byId("check-error"),
    result: byId("check-result"),
  },
  { client, sources, mode },
);

const tabNames: TabName[] = ["ask", "extract", "eval", "check"];
const tabs = tabNames.map((name) => byId<HTMLButtonElement>(`tab-${name}`));

function selectTab(name: TabName, focus = false): void {
  for (const [index, tabName] of tabNames.entries()) {
    const tab = tabs[index] as HTMLButtonElement;
    const selected = tabName === name;
    tab.setAttribute("aria-selected", String(selected));
    tab.tabIndex = selected ? 0 : -1;
    byId(`panel-${tabName}`).hidden = !selected;
    if (selected && focus) tab.focus();
  }
  // Eval cases carry their own sources, so the sources column makes room for the chart.
  byId("sources-panel").hidden = name === "eval";
  byId("layout").classList.toggle("single", name === "eval");
  if (name === "ask") sources.showSnapshot(ask.snapshot());
  if (name === "extract") sources.showSnapshot(extract.snapshot());
  if (name === "check") sources.showSnapshot(check.snapshot());
}

for (const [index, tab] of tabs.entries()) {
  const name = tabNames[index] as TabName;
  tab.addEventListener("click", () => selectTab(name));
  // Arrow keys move between tabs (WAI-ARIA tabs pattern); Tab moves into the panel.
  tab.addEventListener("keydown", (event) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    let target = step === 0 ? -1 : (index + step + tabNames.length) % tabNames.length;
    if (event.key === "Home") target = 0;
    if (event.key === "End") target = tabNames.length - 1;
    if (target < 0) return;
    event.preventDefault();
    selectTab(tabNames[target] as TabName, true);
  });
}

byId("ask-sample").addEventListener("click", () => {
  ask.load([{ role: "user", content: sampleQuestion }], sampleSources, "the sample");
  void ask.run();
});
byId("extract-sample").addEventListener("click", () => {
  sources.setSources(sampleSources);
  extract.setFields(sampleFields);
  void extract.run();
});
byId("eval-sample").addEventListener("click", () => {
  evaluation.setDataset(sampleDataset, "the sample dataset");
  void evaluation.run();
});
byId("check-sample").addEventListener("click", () => {
  check.load(sampleAnswer, sampleSources);
  void check.run();
});
