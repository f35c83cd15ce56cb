import type { Range, Source } from "../../client/index.js";
import { DEFAULT_SOURCES_BUDGET } from "../../limits.js";
import { h } from "../dom.js";
import { highlightPieces } from "./result-text.js";

/** The sources column: editable sources, and a read-only view of the sources a result was made from. */
export interface SourcesPanel {
  /** The sources as currently edited, in order. */
  getSources(): Source[];
  /** Replaces the edited sources and switches to editing. */
  setSources(sources: readonly Source[]): void;
  /** Shows the sources a result refers to (its ranges index into these texts), or null to edit. */
  showSnapshot(sources: readonly Source[] | null): void;
  /**
   * Marks `range` (or each of several ranges: support pooled over a page) in the snapshot source `sourceId`
   * and scrolls the first into view; false if it cannot.
   */
  highlight(sourceId: string, range: Range | readonly Range[]): boolean;
}

/** Elements the panel works in; all exist in index.html. */
export interface SourcesPanelElements {
  panel: HTMLElement;
  editor: HTMLElement;
  list: HTMLElement;
  viewer: HTMLElement;
  addButton: HTMLButtonElement;
  fileInput: HTMLInputElement;
  editToggle: HTMLButtonElement;
  viewToggle: HTMLButtonElement;
  total: HTMLElement;
  notice: HTMLElement;
}

const textFile = /\.(txt|md|markdown|text)$/i;
const sourcesBudget = DEFAULT_SOURCES_BUDGET;
let nextCardNumber = 1;

/** Wires the sources column. */
export function createSourcesPanel(elements: SourcesPanelElements): SourcesPanel {
  const { panel, editor, list, viewer, addButton, fileInput, editToggle, viewToggle, total, notice } =
    elements;
  let snapshotViews = new Map<string, { pre: HTMLPreElement; text: string; article: HTMLElement }>();

  function cards(): HTMLElement[] {
    return Array.from(list.querySelectorAll<HTMLElement>(".source-card"));
  }

  function getSources(): Source[] {
    return cards().map((card) => ({
      id: (card.querySelector(".source-id") as HTMLInputElement).value,
      text: (card.querySelector(".source-text") as HTMLTextAreaElement).value,
    }));
  }

  function updateTotal(): void {
    const characters = getSources().reduce((sum, source) => sum + source.text.length, 0);
    const count = cards().length;
    total.textContent = `${count} ${count === 1 ? "source" : "sources"}, ${characters.toLocaleString("en")} of about ${sourcesBudget.toLocaleString("en")} characters`;
    total.classList.toggle("over-budget", characters > sourcesBudget);
  }

  function addCard(source: Source, focus = false): void {
    const number = nextCardNumber++;
    const idInput = h("input", {
      class: "source-id",
      id: `source-id-${number}`,
      type: "text",
      spellcheck: "false",
      autocomplete: "off",
    });
    idInput.value = source.id;
    const textArea = h("textarea", {
      class: "source-text",
      id: `source-text-${number}`,
      rows: 6,
      spellcheck: "false",
    });
    textArea.value = source.text;
    const removeButton = h("button", { type: "button", class: "quiet" }, "Remove");
    const textLabel = h(
      "label",
      { for: textArea.id, class: "visually-hidden" },
      `Text of source ${source.id}`,
    );
    const card = h(
      "li",
      { class: "source-card" },
      h("div", { class: "source-card-head" }, h("label", { for: idInput.id }, "Id"), idInput, removeButton),
      textLabel,
      textArea,
    );
    const relabel = () => {
      const name = idInput.value.trim() || "without an id";
      textLabel.textContent = `Text of source ${name}`;
      removeButton.setAttribute("aria-label", `Remove source ${name}`);
    };
    relabel();
    idInput.addEventListener("input", relabel);
    removeButton.addEventListener("click", () => {
      const next = card.nextElementSibling ?? card.previousElementSibling;
      card.remove();
      updateTotal();
      // Keep keyboard focus in the list instead of dropping it on <body>.
      ((next?.querySelector(".source-text") as HTMLElement | null) ?? addButton).focus();
    });
    list.append(card);
    updateTotal();
    if (focus) (source.id === "" ? idInput : textArea).focus();
  }

  function uniqueId(base: string): string {
    const taken = new Set(getSources().map((source) => source.id));
    if (!taken.has(base)) return base;
    let suffix = 2;
    while (taken.has(`${base}-${suffix}`)) suffix++;
    return `${base}-${suffix}`;
  }

  async function addFiles(files: readonly File[]): Promise<void> {
    const skipped: string[] = [];
    for (const file of files) {
      if (!textFile.test(file.name) && !file.type.startsWith("text/")) {
        skipped.push(file.name);
        continue;
      }
      addCard({ id: uniqueId(file.name), text: await file.text() });
    }
    setEditing(true);
    notice.textContent =
      skipped.length === 0
        ? ""
        : `Skipped ${skipped.join(", ")}: only .txt and .md files can be added as sources.`;
  }

  function setEditing(editing: boolean): void {
    editor.hidden = !editing;
    viewer.hidden = editing;
    editToggle.setAttribute("aria-pressed", String(editing));
    viewToggle.setAttribute("aria-pressed", String(!editing));
  }

  function setSources(sources: readonly Source[]): void {
    list.replaceChildren();
    for (const source of sources) addCard(source);
    updateTotal();
    notice.textContent = "";
    setEditing(true);
  }

  function showSnapshot(sources: readonly Source[] | null): void {
    snapshotViews = new Map();
    viewer.replaceChildren();
    if (sources === null) {
      viewToggle.disabled = true;
      setEditing(true);
      return;
    }
    viewer.append(
      h(
        "p",
        { class: "hint" },
        "As sent with the result shown. Hover or focus a citation to see its exact characters.",
      ),
    );
    for (const source of sources) {
      const pre = h(
        "pre",
        { class: "source-view-text", tabindex: 0, "aria-label": `Source ${source.id}` },
        source.text,
      );
      const article = h("article", { class: "source-view" }, h("h3", {}, source.id), pre);
      viewer.append(article);
      if (!snapshotViews.has(source.id)) snapshotViews.set(source.id, { pre, text: source.text, article });
    }
    viewToggle.disabled = false;
    setEditing(false);
  }

  function highlight(sourceId: string, range: Range | readonly Range[]): boolean {
    const view = snapshotViews.get(sourceId);
    if (view === undefined) return false;
    const ranges = typeof range[0] === "number" ? [range as Range] : (range as readonly Range[]);
    const pieces = highlightPieces(view.text, ranges);
    if (pieces === null || ranges.length === 0) return false;
    for (const other of snapshotViews.values()) {
      if (other !== view && other.article.classList.contains("active")) {
        other.pre.textContent = other.text;
        other.article.classList.remove("active");
      }
    }
    setEditing(false);
    const nodes = pieces.map((piece) =>
      piece.highlighted ? h("mark", { class: "quote-highlight" }, piece.text) : piece.text,
    );
    view.pre.replaceChildren(...nodes);
    view.article.classList.add("active");
    nodes
      .find((node): node is HTMLElement => typeof node !== "string")
      ?.scrollIntoView({
        block: "nearest",
        inline: "nearest",
      });
    return true;
  }

  addButton.addEventListener("click", () => {
    addCard({ id: uniqueId(`source-${cards().length + 1}`), text: "" }, true);
    setEditing(true);
  });
  list.addEventListener("input", updateTotal);
  fileInput.addEventListener("change", () => {
    void addFiles(Array.from(fileInput.files ?? [])).then(() => {
      fileInput.value = "";
    });
  });
  editToggle.addEventListener("click", () => setEditing(true));
  viewToggle.addEventListener("click", () => setEditing(false));
  panel.addEventListener("dragover", (event) => {
    if (!event.dataTransfer?.types.includes("Files")) return;
    event.preventDefault();
    panel.classList.add("dropping");
  });
  panel.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null || !panel.contains(event.relatedTarget as Node))
      panel.classList.remove("dropping");
  });
  panel.addEventListener("drop", (event) => {
    event.preventDefault();
    panel.classList.remove("dropping");
    void addFiles(Array.from(event.dataTransfer?.files ?? []));
  });
  viewToggle.disabled = true;
  updateTotal();

  return { getSources, setSources, showSnapshot, highlight };
}
