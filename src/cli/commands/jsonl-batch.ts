import { type PreparedSource, prepareSources, type Source } from "../../core/index.js";
import { JSONL_PREPARED_SOURCE_CHARS } from "../../limits.js";

const LINE_FEED = 10;
const CARRIAGE_RETURN = 13;

/**
 * Cuts text arriving in chunks into lines as `readline` does with `crlfDelay: Infinity`: a line ends at
 * `\n`, `\r\n` or a lone `\r`, and a last line without a break counts when it is not empty. One pass over
 * each chunk, so a caller can handle a whole chunk's lines before it writes.
 */
export class LineSplitter {
  #rest = "";

  /** The lines completed by `chunk`, in order. */
  push(chunk: string): string[] {
    const text = this.#rest + chunk;
    const lines: string[] = [];
    if (text.indexOf("\r") < 0) {
      // No `\r` at all, the usual case: the native search finds each `\n`.
      let start = 0;
      for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
        lines.push(text.slice(start, end));
        start = end + 1;
      }
      this.#rest = text.slice(start);
      return lines;
    }
    // A `\r` at the end waits for the next chunk, which may start with its `\n`.
    const end = text.charCodeAt(text.length - 1) === CARRIAGE_RETURN ? text.length - 1 : text.length;
    let start = 0;
    for (let index = 0; index < end; index++) {
      const code = text.charCodeAt(index);
      if (code !== LINE_FEED && code !== CARRIAGE_RETURN) continue;
      lines.push(text.slice(start, index));
      if (code === CARRIAGE_RETURN && text.charCodeAt(index + 1) === LINE_FEED) index += 1;
      start = index + 1;
    }
    this.#rest = text.slice(start);
    return lines;
  }

  /** The last line, if the input ended without a line break after it. */
  end(): string[] {
    const rest = this.#rest;
    this.#rest = "";
    if (rest === "") return [];
    return [rest.charCodeAt(rest.length - 1) === CARRIAGE_RETURN ? rest.slice(0, -1) : rest];
  }
}

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
