import { isWordChar } from "./is-word-char.js";

/** Where the run of word characters (letters, digits, marks; any script) starting at `start` ends. */
export function wordEnd(text: string, start: number): number {
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    // ASCII first: labels and claims are mostly ASCII.
    if (code < 128) {
      if ((code >= 48 && code <= 57) || ((code | 32) >= 97 && (code | 32) <= 122)) {
        end += 1;
        continue;
      }
      break;
    }
    const codePoint = text.codePointAt(end) as number;
    if (!isWordChar(codePoint)) break;
    end += codePoint > 0xffff ? 2 : 1;
  }
  return end;
}
