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
