import { MAX_MODEL_JSON_DEPTH, MAX_MODEL_JSON_VALUES } from "../limits.js";

/** Reads a model's JSON text piece by piece for its shape, before any parser builds it. */
export interface JsonShapeScanner {
  /** The next piece of text; returns why the text is refused once it is (and from then on). */
  push(text: string): string | undefined;
  /** Where in the piece that refused the text the refusal began: the text before it is within bounds. */
  readonly refusedAt: number;
  /** Whether a key of the top-level object has appeared twice so far (read as `JSON.parse` decodes keys). */
  readonly repeatedTopLevelKey: boolean;
}

/**
 * A scanner that refuses JSON nesting deeper than `MAX_MODEL_JSON_DEPTH` or holding more than
 * `MAX_MODEL_JSON_VALUES` values (objects, arrays, strings and commas), and notes a repeated top-level key
 * (JSON.parse keeps the last, a stream reader sees the first). Strings and escapes are followed across
 * pieces. O(length of text) in all; memory O(the top-level keys). Malformed text is not its concern: a
 * parser reports it.
 */
export function createJsonShapeScanner(): JsonShapeScanner {
  let depth = 0;
  let values = 0;
  let inString = false;
  let escaped = false;
  /** The top-level value is an object, whose keys are noted. */
  let topIsObject = false;
  /** The top-level object expects a key next. */
  let expectKey = false;
  /** The raw text of the top-level key being read, while it is read. */
  let key: string[] | undefined;
  const keys = new Set<string>();
  let repeated = false;
  let problem: string | undefined;
  let refusedAt = 0;

  const endKey = () => {
    let decoded: string;
    try {
      decoded = JSON.parse(`"${(key ?? []).join("")}"`) as string;
    } catch {
      decoded = (key ?? []).join("");
    }
    if (keys.has(decoded)) repeated = true;
    keys.add(decoded);
    key = undefined;
  };

  return {
    get repeatedTopLevelKey() {
      return repeated;
    },
    get refusedAt() {
      return refusedAt;
    },
    push(text) {
      if (problem !== undefined) return problem;
      let keyFrom = key === undefined ? -1 : 0;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        if (inString) {
          if (escaped) escaped = false;
          else if (code === 0x5c /* \ */) escaped = true;
          else if (code === 0x22 /* " */) {
            inString = false;
            if (key !== undefined) {
              key.push(text.slice(keyFrom, index));
              endKey();
            }
          }
          continue;
        }
        if (code === 0x22) {
          inString = true;
          values += 1;
          if (depth === 1 && expectKey) {
            expectKey = false;
            key = [];
            keyFrom = index + 1;
          }
        } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
          depth += 1;
          values += 1;
          if (depth === 1) {
            topIsObject = code === 0x7b;
            expectKey = topIsObject;
          }
          if (depth > MAX_MODEL_JSON_DEPTH) {
            problem = `the model's output nests deeper than ${MAX_MODEL_JSON_DEPTH} levels`;
            refusedAt = index;
            return problem;
          }
        } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
          depth = Math.max(0, depth - 1);
        } else if (code === 0x2c /* , */) {
          values += 1;
          if (depth === 1) expectKey = topIsObject;
        } else continue;
        if (values > MAX_MODEL_JSON_VALUES) {
          problem = `the model's output holds more than ${MAX_MODEL_JSON_VALUES.toLocaleString("en-US")} JSON values`;
          refusedAt = index;
          return problem;
        }
      }
      if (key !== undefined) key.push(text.slice(keyFrom));
      return undefined;
    },
  };
}
