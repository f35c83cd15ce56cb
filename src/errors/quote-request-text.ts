import { MAX_QUOTED_REQUEST_CHARS } from "../limits.js";
import { splitsSurrogatePair } from "../util.js";

/**
 * `text` cut to `max` characters (default `MAX_QUOTED_REQUEST_CHARS`, 200) with `…` appended when it was longer:
 * how any string from a request (a model id, a field name, a param path) is quoted in an error message or a
 * log line, so a 3 MB field name costs 200 characters, not 6 MB. Never splits a surrogate pair.
 */
export function quoteRequestText(text: string, max: number = MAX_QUOTED_REQUEST_CHARS): string {
  if (text.length <= max) return text;
  let end = max;
  if (splitsSurrogatePair(text, end)) end -= 1;
  return `${text.slice(0, end)}…`;
}
