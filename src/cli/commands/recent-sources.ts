import { type PreparedSource, prepareSources, type Source } from "../../core/index.js";
import { JSONL_PREPARED_SOURCE_CHARS } from "../../limits.js";

/**
 * The prepared sources of recent `--jsonl` documents, least recently used dropped first. A batch often
 * checks many lines against the same source (one table, many cells); a line that repeats a source's id and
 * text gets the same prepared object, so its tokens, tables and label automaton are built once. Results do
 * not change: every prepared view is a pure function of the text.
 */
export class RecentSources {
  /** By text, then by id; a Map keeps insertion order, so the first key is the least recently used. */
  readonly #byText = new Map<string, Map<string, PreparedSource>>();
  #chars = 0;

  constructor(readonly maxChars = JSONL_PREPARED_SOURCE_CHARS) {}

  /** The document's sources by id, first one wins, as `prepareSources` gives them. */
  prepare(sources: readonly Source[]): Map<string, PreparedSource> {
    const byId = new Map<string, PreparedSource>();
    for (const source of sources) {
      if (byId.has(source.id)) continue;
      byId.set(source.id, this.#prepared(source));
    }
    return byId;
  }

  #prepared(source: Source): PreparedSource {
    const { text } = source;
    if (text.length > this.maxChars) return prepareSources([source]).get(source.id) as PreparedSource;
    let byId = this.#byText.get(text);
    if (byId === undefined) {
      byId = new Map();
      this.#chars += text.length;
      while (this.#chars > this.maxChars) this.#dropOldest();
    } else {
      this.#byText.delete(text);
    }
    this.#byText.set(text, byId);
    let prepared = byId.get(source.id);
    if (prepared === undefined) {
      prepared = prepareSources([source]).get(source.id) as PreparedSource;
      byId.set(source.id, prepared);
    }
    return prepared;
  }

  #dropOldest(): void {
    const oldest = this.#byText.keys().next();
    if (oldest.done) return;
    this.#byText.delete(oldest.value);
    this.#chars -= oldest.value.length;
  }
}
