import type { ExtractParams, ExtractResult, MatchMode, Source, Verified } from "../../client/index.js";
import { h } from "../dom.js";
import { clearError } from "./error-box.js";
import { coverageMeter, usageLine } from "./result-meta.js";
import { reasonInWords } from "./result-text.js";
import { createLatestRunner, showFailure } from "./run-latest.js";
import type { SourcesPanel } from "./sources-panel.js";

/** Elements of the Extract tab; all exist in index.html. */
export interface ExtractElements {
  form: HTMLFormElement;
  rows: HTMLElement;
  addField: HTMLButtonElement;
  submit: HTMLButtonElement;
  status: HTMLElement;
  error: HTMLElement;
  result: HTMLElement;
}

/** What the Extract tab needs from the rest of the page. */
export interface ExtractDependencies {
  /** The package's client, built with the key as typed now. */
  client: () => Verified;
  sources: SourcesPanel;
  model: () => string;
  mode: () => MatchMode;
}

/** The Extract tab's actions. */
export interface ExtractView {
  run(): Promise<void>;
  /** Replaces the field rows. */
  setFields(schema: Readonly<Record<string, string>>): void;
  snapshot(): readonly Source[] | null;
}

let rowCount = 1;

/** Wires the Extract tab: name/description rows in, a table of verified values out. */
export function createExtractView(elements: ExtractElements, dependencies: ExtractDependencies): ExtractView {
  const { client, sources } = dependencies;
  let shownSources: readonly Source[] | null = null;
  const forgetResult = () => {
    shownSources = null;
    sources.showSnapshot(null);
  };
  const runLatest = createLatestRunner(elements, forgetResult);

  function addRow(name = "", description = "", focus = false): void {
    const number = rowCount++;
    const nameInput = h("input", {
      type: "text",
      class: "field-name",
      id: `field-name-${number}`,
      spellcheck: "false",
      autocomplete: "off",
      placeholder: "name",
    });
    nameInput.value = name;
    const descriptionInput = h("input", {
      type: "text",
      class: "field-description",
      id: `field-description-${number}`,
      autocomplete: "off",
      placeholder: "what the value is",
    });
    descriptionInput.value = description;
    const removeButton = h(
      "button",
      { type: "button", class: "quiet", "aria-label": "Remove this field" },
      "Remove",
    );
    const row = h(
      "li",
      { class: "field-row" },
      h("label", { for: nameInput.id, class: "visually-hidden" }, `Field ${number} name`),
      nameInput,
      h("label", { for: descriptionInput.id, class: "visually-hidden" }, `Field ${number} description`),
      descriptionInput,
      removeButton,
    );
    removeButton.addEventListener("click", () => {
      const next = row.nextElementSibling ?? row.previousElementSibling;
      row.remove();
      ((next?.querySelector("input") as HTMLElement | null) ?? elements.addField).focus();
    });
    elements.rows.append(row);
    if (focus) nameInput.focus();
  }

  function schema(): Record<string, string> | string {
    const result: Record<string, string> = {};
    for (const row of Array.from(elements.rows.querySelectorAll(".field-row"))) {
      const name = (row.querySelector(".field-name") as HTMLInputElement).value.trim();
      const description = (row.querySelector(".field-description") as HTMLInputElement).value.trim();
      if (name === "" && description === "") continue;
      if (name === "") return `Give the field described as "${description}" a name.`;
      if (description === "")
        return `Describe the field "${name}": a short, concrete description of the value.`;
      if (Object.hasOwn(result, name)) return `The field "${name}" is listed twice.`;
      result[name] = description;
    }
    if (Object.keys(result).length === 0) return "Add at least one field: a name and a description.";
    return result;
  }

  async function run(): Promise<void> {
    clearError(elements.error);
    const fields = schema();
    if (typeof fields === "string") {
      forgetResult();
      showFailure(elements, new Error(fields));
      return;
    }
    const request: ExtractParams = {
      model: dependencies.model(),
      sources: sources.getSources(),
      schema: fields,
      mode: dependencies.mode(),
    };
    const started = performance.now();
    await runLatest(
      "Extracting…",
      (signal) => client().extract(request, { signal }),
      (result) => {
        shownSources = request.sources;
        render(result, request.sources, performance.now() - started);
      },
    );
  }

  function render(result: ExtractResult, sent: readonly Source[], elapsedMs: number): void {
    sources.showSnapshot(sent);
    const entries = Object.entries(result.fields);
    const grounded = entries.filter(([, field]) => field.grounded).length;
    const valueButtons: HTMLButtonElement[] = [];
    const rows = entries.map(([name, field]) => {
      let valueCell: HTMLElement;
      if (field.value !== null) {
        const { value, source, range } = field;
        const button = h(
          "button",
          {
            type: "button",
            class: "value-chip",
            "aria-label": `${name}: ${value}, from ${source} characters ${range[0]} to ${range[1]}`,
          },
          value,
        );
        const show = () => {
          for (const other of valueButtons) other.classList.toggle("active", other === button);
          sources.highlight(source, range);
        };
        button.addEventListener("mouseenter", show);
        button.addEventListener("focus", show);
        button.addEventListener("click", show);
        valueButtons.push(button);
        valueCell = h("td", {}, button);
      } else {
        valueCell = h(
          "td",
          { class: "not-found" },
          "not found",
          // The wire schema leaves `reason` optional, so it is checked rather than assumed.
          field.reason !== undefined && h("span", { class: "reason" }, ` — ${reasonInWords(field.reason)}`),
        );
      }
      return h(
        "tr",
        {},
        h("th", { scope: "row" }, name),
        valueCell,
        h("td", {}, field.value === null ? "—" : field.source),
        h(
          "td",
          {},
          field.grounded ? h("span", { class: "badge ok" }, "yes") : h("span", { class: "badge warn" }, "no"),
        ),
      );
    });
    elements.result.replaceChildren(
      h(
        "section",
        { class: "result", "aria-label": "Extracted fields" },
        h("div", { class: "result-head" }, coverageMeter(result.coverage, grounded, entries.length, "field")),
        h(
          "div",
          { class: "table-scroll" },
          h(
            "table",
            { class: "fields-table" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                h("th", { scope: "col" }, "Field"),
                h("th", { scope: "col" }, "Value"),
                h("th", { scope: "col" }, "Source"),
                h("th", { scope: "col" }, "Grounded"),
              ),
            ),
            h("tbody", {}, ...rows),
          ),
        ),
        usageLine(result.model, result.usage, elapsedMs, result.id),
      ),
    );
  }

  function setFields(fields: Readonly<Record<string, string>>): void {
    elements.rows.replaceChildren();
    for (const [name, description] of Object.entries(fields)) addRow(name, description);
  }

  elements.form.addEventListener("submit", (event) => {
    event.preventDefault();
    void run();
  });
  elements.addField.addEventListener("click", () => addRow("", "", true));
  addRow();

  return { run, setFields, snapshot: () => shownSources };
}
