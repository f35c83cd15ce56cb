import { createJsonShapeScanner } from "./json-shape.js";

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
 * Each reading is scanned for its shape before it is parsed (json-shape.ts): one nesting deeper than
 * `MAX_MODEL_JSON_DEPTH` or with more than `MAX_MODEL_JSON_VALUES` values is refused unparsed.
 * O(n) in the length of `content`: every step is a forward scan (no backtracking regex sees model text).
 */
export function parseModelJson(content: string): ModelJson {
  const text = content.trim();
  if (text === "") return { ok: false, error: "the model returned no content" };
  const firstBrace = text.indexOf("{");
  let refused: string | undefined;
  const read = (candidate: string, start: number): ModelJson | undefined => {
    const scanner = createJsonShapeScanner();
    const problem = scanner.push(candidate);
    if (problem !== undefined) {
      refused ??= problem;
      return undefined;
    }
    try {
      const value: unknown = JSON.parse(candidate);
      return { ok: true, value, readsFirstObject: start === firstBrace && !scanner.repeatedTopLevelKey };
    } catch {
      return undefined;
    }
  };
  const whole = read(text, 0);
  if (whole !== undefined) return whole;
  const fenced = firstFencedBlock(text);
  if (fenced !== undefined) {
    const block = text.slice(fenced.start, fenced.end);
    const trimmed = block.trim();
    const reading = read(trimmed, fenced.start + block.length - block.trimStart().length);
    if (reading !== undefined) return reading;
  }
  const braced = firstBalancedObject(text, firstBrace);
  if (braced !== undefined) {
    const reading = read(braced, firstBrace);
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
