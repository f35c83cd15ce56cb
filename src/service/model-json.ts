import { MAX_MODEL_JSON_DEPTH, MAX_MODEL_JSON_VALUES, OWN_TURN_TEXT_CHARS } from "../limits.js";
import { runSteps, type Steps } from "../util.js";

/**
 * The result of reading JSON out of a model's text. `readsFirstObject`: the value read is the object that
 * starts at the text's first `{` and repeats no top-level key, so a reader that follows the text from its
 * first `{` as it streams (claim-stream-reader.ts) reads the same thing.
 */
export type ModelJson =
  | { ok: true; value: unknown; readsFirstObject: boolean }
  | { ok: false; error: string };

/**
 * Reads the JSON object a model returned: the whole text, else the first fenced ```json block, else the
 * first balanced `{…}` after any prose. Models wrap JSON in fences and preambles even when asked not to.
 * Each reading is scanned for its shape before it is parsed (`createJsonShapeScanner`): one nesting deeper than
 * `MAX_MODEL_JSON_DEPTH` or with more than `MAX_MODEL_JSON_VALUES` values is refused unparsed.
 * O(n) in the length of `content`: every step is a forward scan (no backtracking regex sees model text).
 */
export function parseModelJson(content: string): ModelJson {
  return runSteps(parseModelJsonSteps(content));
}

/**
 * `parseModelJson` cut into steps (src/util.ts), for a reply of megabytes: a reading is scanned
 * `stepChars` at a time with a step between pieces, and a reading of `stepChars` or more is parsed from a
 * step of its own, so a caller that runs the steps with turns (`runStepsYielding`) never holds the event
 * loop for the scan and the parse together. Same result as `parseModelJson`.
 */
export function* parseModelJsonSteps(content: string, stepChars = OWN_TURN_TEXT_CHARS): Steps<ModelJson> {
  const text = content.trim();
  if (text === "") return { ok: false, error: "the model returned no content" };
  const firstBrace = text.indexOf("{");
  let refused: string | undefined;
  function* read(candidate: string, start: number): Generator<void, ModelJson | undefined, void> {
    const scanner = createJsonShapeScanner();
    let problem: string | undefined;
    for (let at = 0; at < candidate.length && problem === undefined; at += stepChars) {
      if (at > 0) yield;
      problem = scanner.push(candidate.slice(at, at + stepChars));
    }
    if (problem !== undefined) {
      refused ??= problem;
      return undefined;
    }
    if (candidate.length >= stepChars) yield;
    try {
      const value: unknown = JSON.parse(candidate);
      return { ok: true, value, readsFirstObject: start === firstBrace && !scanner.repeatedTopLevelKey };
    } catch {
      return undefined;
    }
  }
  const whole = yield* read(text, 0);
  if (whole !== undefined) return whole;
  const fenced = firstFencedBlock(text);
  if (fenced !== undefined) {
    const block = text.slice(fenced.start, fenced.end);
    const trimmed = block.trim();
    const reading = yield* read(trimmed, fenced.start + block.length - block.trimStart().length);
    if (reading !== undefined) return reading;
  }
  const braced = firstBalancedObject(text, firstBrace);
  if (braced !== undefined) {
    const reading = yield* read(braced, firstBrace);
    if (reading !== undefined) return reading;
  }
  return { ok: false, error: refused ?? "the model's output is not valid JSON" };
}

const fence = "```";

/**
 * Where the text between the first ``` (with an optional `json`/`JSON` tag) and the next ``` lies, or
 * undefined when there is no closing fence. Two `indexOf` scans, O(n); it replaces
 * `/```(?:json)?\s*\n?([\s\S]*?)```/`, which took O(n²) steps on "```" followed by a long run of spaces.
 * Leading whitespace is kept: the caller trims the block.
 */
export function firstFencedBlock(text: string): { start: number; end: number } | undefined {
  const open = text.indexOf(fence);
  if (open < 0) return undefined;
  let start = open + fence.length;
  if (text.startsWith("json", start) || text.startsWith("JSON", start)) start += 4;
  const close = text.indexOf(fence, start);
  return close < 0 ? undefined : { start, end: close };
}

/** The first `{…}` (from `start`, the first `{`) whose braces balance, strings and escapes respected: O(n). */
function firstBalancedObject(text: string, start: number): string | undefined {
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}

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
