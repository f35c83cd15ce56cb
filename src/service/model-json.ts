import { MAX_MODEL_JSON_DEPTH, MAX_MODEL_JSON_VALUES, OWN_TURN_TEXT_CHARS } from "../limits.js";
import { isRecord, runSteps, type Steps } from "../util.js";

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
 * step of its own, its top-level arrays' elements about `stepChars` a step (`parseByItemsSteps`), so a
 * caller that runs the steps with turns (`runStepsYielding`) never holds the event loop for the scan and the
 * parse together, nor for the parse of a whole reply. Same result as `parseModelJson`.
 */
export function* parseModelJsonSteps(content: string, stepChars = OWN_TURN_TEXT_CHARS): Steps<ModelJson> {
  const text = content.trim();
  if (text === "") return { ok: false, error: "the model returned no content" };
  const firstBrace = text.indexOf("{");
  let refused: string | undefined;
  function* read(candidate: string, start: number): Generator<void, ModelJson | undefined, void> {
    const layout = new JsonLayout();
    const scanner = createJsonShapeScanner(layout);
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
      const value = yield* parseByItemsSteps(candidate, layout, scanner.repeatedTopLevelKey, stepChars);
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

/**
 * Where a JSON text's parts lie, as `createJsonShapeScanner` reads them: each value string (not keys), with
 * whether it holds an escape, and each element of the arrays that are values of the top-level object (a
 * model's `claims`), with the key that holds its array. Positions are in the whole text the scanner read.
 * Grows by doubling: O(strings + elements).
 */
export class JsonLayout {
  strings = 0;
  private stringSpans = new Int32Array(64);
  readonly items: { key: string; index: number; start: number; end: number }[] = [];
  /** Strings `parseByItems` replaced with views of the text. */
  shared = 0;

  addString(start: number, end: number, escaped: boolean): void {
    if (this.strings * 2 >= this.stringSpans.length) {
      const grown = new Int32Array(this.stringSpans.length * 2);
      grown.set(this.stringSpans);
      this.stringSpans = grown;
    }
    // An escaped string is marked by a negative start (its start plus one, so 0 stays negative).
    this.stringSpans[this.strings * 2] = escaped ? -(start + 1) : start;
    this.stringSpans[this.strings * 2 + 1] = end;
    this.strings += 1;
  }

  /** The span of value string `index`: after its opening quote to its closing one, `escaped` if it holds one. */
  string(index: number): { start: number; end: number; escaped: boolean } {
    const start = this.stringSpans[index * 2] as number;
    return {
      start: start < 0 ? -start - 1 : start,
      end: this.stringSpans[index * 2 + 1] as number,
      escaped: start < 0,
    };
  }
}

/** Strings shorter than this are left as the parser made them (V8 copies a substring under 13 characters). */
const SHARED_STRING_MIN_CHARS = 64;

/**
 * Elements shorter than this on average are parsed in runs (`parseByItemsSteps`): a call of `JSON.parse` per
 * element costs more than it saves on small ones, and a hostile output of 500,000 one-digit elements would
 * otherwise make 500,000 calls. At most 8 MiB / 256 = 32,768 calls for a gateway answer.
 */
const ITEM_PARSE_MIN_AVERAGE_CHARS = 256;

/**
 * `JSON.parse(text)` (the same value, and it throws on the same texts), with the elements of the top-level
 * object's arrays (a model's claims) parsed one by one, each element's long unescaped strings then replaced
 * by the equal `text.slice`, which V8 keeps as a view into `text` rather than a copy. Parsed at once, a
 * model's megabytes of claims are thousands of fresh strings that young-generation collections, which fall
 * inside a parse that size, copy and promote: on the `eval-details` bench they were most of what those
 * collections copied. Element by element, a collection seldom falls inside one element's parse, and what
 * the case keeps is views of the output, which it keeps whole anyway (for a re-ask). The rest of the text
 * (each element replaced by ` 0 `) is parsed first; when it does not parse or does not hold the placeholders
 * where `layout` says, when a top-level key repeats, or when no top-level array has elements, the text is
 * parsed whole. Elements under `ITEM_PARSE_MIN_AVERAGE_CHARS` on average are parsed in runs of about
 * `stepChars` (each run one `JSON.parse` of them as an array, its strings not shared), each run replaced by
 * one ` 0 `. O(length of text). Runs `parseByItemsSteps` straight through.
 */
export function parseByItems(text: string, layout: JsonLayout, repeatedTopLevelKey: boolean): unknown {
  return runSteps(parseByItemsSteps(text, layout, repeatedTopLevelKey));
}

/**
 * `parseByItems` cut into steps: a step after each `stepChars` or more of elements parsed, so no step parses
 * more than `stepChars` plus one element (the rest of the text with its placeholders is parsed in the first).
 * A text parsed whole (see `parseByItems`) is one step. Same value, same throws.
 */
export function* parseByItemsSteps(
  text: string,
  layout: JsonLayout,
  repeatedTopLevelKey: boolean,
  stepChars = OWN_TURN_TEXT_CHARS,
): Steps<unknown> {
  const { items } = layout;
  if (items.length === 0 || repeatedTopLevelKey || items.some(({ key }) => key === "__proto__"))
    return JSON.parse(text);
  // Short elements are parsed in runs of several, each run as an array; long ones one by one.
  const inRuns = items.length * ITEM_PARSE_MIN_AVERAGE_CHARS > text.length;
  const runs = itemRuns(items, inRuns ? stepChars : 0);
  const parts: string[] = [];
  let at = 0;
  for (const run of runs) {
    parts.push(text.slice(at, run.start), " 0 ");
    at = run.end;
  }
  parts.push(text.slice(at));
  let skeleton: unknown;
  try {
    skeleton = JSON.parse(parts.join(""));
  } catch {
    return JSON.parse(text);
  }
  const arrayOf = (key: string): unknown[] | undefined => {
    if (!isRecord(skeleton) || !Object.hasOwn(skeleton, key)) return undefined;
    const array = skeleton[key];
    return Array.isArray(array) ? array : undefined;
  };
  const runsOf = new Map<string, number>();
  for (const { key } of runs) runsOf.set(key, (runsOf.get(key) ?? 0) + 1);
  if (
    runs.some(({ key, index }) => arrayOf(key)?.[index] !== 0) ||
    [...runsOf].some(([key, count]) => arrayOf(key)?.length !== count)
  )
    return JSON.parse(text);
  let next = 0;
  let parsed = 0;
  for (const run of runs) {
    if (parsed >= stepChars) {
      parsed = 0;
      yield;
    }
    parsed += run.end - run.start;
    const array = arrayOf(run.key) as unknown[];
    if (inRuns) {
      array[run.index] = JSON.parse(`[${text.slice(run.start, run.end)}]`);
      continue;
    }
    const element: unknown = JSON.parse(text.slice(run.start, run.end));
    while (next < layout.strings && layout.string(next).start < run.start) next += 1;
    next = shareStrings(element, text, layout, next, run.end);
    array[run.index] = element;
  }
  // Each placeholder of a run became the array of its elements: joined in order, they are the array.
  if (inRuns)
    for (const key of runsOf.keys())
      (skeleton as Record<string, unknown>)[key] = (arrayOf(key) as unknown[][]).flat();
  return skeleton;
}

/**
 * The top-level arrays' elements (`layout.items`) in runs of consecutive elements of one array, each run
 * closed once it spans `runChars` or more (with `runChars` 0, every element is a run of its own). `index` is
 * the run's place in its array once each run is one placeholder. O(items).
 */
function itemRuns(
  items: JsonLayout["items"],
  runChars: number,
): { key: string; index: number; start: number; end: number }[] {
  const runs: { key: string; index: number; start: number; end: number }[] = [];
  let runIndex = 0;
  for (const item of items) {
    const last = runs.at(-1);
    // An element of index 0 starts an array: a new run, numbered from 0 in that array.
    if (item.index === 0) runIndex = 0;
    if (last !== undefined && item.index > 0 && last.key === item.key && last.end - last.start < runChars) {
      last.end = item.end;
    } else {
      runs.push({ key: item.key, index: runIndex, start: item.start, end: item.end });
      runIndex += 1;
    }
  }
  return runs;
}

/**
 * Replaces the string values of `value` (parsed from `text` up to `end`) that `text` holds unescaped with
 * their `text.slice`, taking `layout`'s value strings from `first` on in property order, which is text
 * order unless an object has integer-like or repeated keys: the first string that does not line up with its
 * span ends the sharing. A string is only ever replaced by an equal one. Returns the next string's index.
 */
function shareStrings(value: unknown, text: string, layout: JsonLayout, first: number, end: number): number {
  let next = first;
  let aligned = true;
  const share = (found: string, assignable: boolean): string => {
    if (!aligned || next >= layout.strings) {
      aligned = false;
      return found;
    }
    const span = layout.string(next);
    next += 1;
    if (span.end > end) aligned = false;
    if (!aligned || span.escaped || !assignable || found.length < SHARED_STRING_MIN_CHARS) return found;
    const slice = span.end - span.start === found.length ? text.slice(span.start, span.end) : undefined;
    if (slice !== found) {
      aligned = false;
      return found;
    }
    layout.shared += 1;
    return slice;
  };
  // The nesting is bounded by MAX_MODEL_JSON_DEPTH: the scanner refused deeper text before it was parsed.
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length && aligned; index += 1) {
        const item: unknown = node[index];
        if (typeof item === "string") node[index] = share(item, true);
        else if (typeof item === "object" && item !== null) visit(item);
      }
    } else if (typeof node === "object" && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (!aligned) return;
        const item = record[key];
        // JSON.parse makes `__proto__` an own property; it is counted off, never assigned. (An equal string
        // compares equal with ===, so the view is assigned without asking whether it is one.)
        if (typeof item === "string") {
          if (key === "__proto__") share(item, false);
          else record[key] = share(item, true);
        } else if (typeof item === "object" && item !== null) visit(item);
      }
    }
  };
  visit(value);
  return next;
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
 * pieces. With a `layout`, it also notes where the value strings and the top-level arrays' elements lie
 * (for `parseByItems`). O(length of text) in all; memory O(the top-level keys), and O(the values) for a
 * layout. Malformed text is not its concern: a parser reports it.
 */
export function createJsonShapeScanner(layout?: JsonLayout): JsonShapeScanner {
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
  // For `layout`: the characters pushed before this piece, whether each open level is an object, whether
  // the next string is a key, the string being read, the last top-level key, and the element being read of
  // an array that is a value of the top-level object.
  let offset = 0;
  const objectAt = new Uint8Array(MAX_MODEL_JSON_DEPTH + 2);
  let keyNext = false;
  let stringIsKey = false;
  let stringStart = 0;
  let stringEscaped = false;
  let lastKey = "";
  let itemsKey: string | undefined;
  let itemIndex = 0;
  let itemStart = -1;

  const endKey = () => {
    let decoded: string;
    try {
      decoded = JSON.parse(`"${(key ?? []).join("")}"`) as string;
    } catch {
      decoded = (key ?? []).join("");
    }
    if (keys.has(decoded)) repeated = true;
    keys.add(decoded);
    lastKey = decoded;
    key = undefined;
  };

  // Notes the element of the current array that ends at `end` (a comma or the closing bracket), if any.
  const endItem = (end: number) => {
    if (itemStart >= 0 && itemsKey !== undefined)
      layout?.items.push({ key: itemsKey, index: itemIndex, start: itemStart, end });
    itemIndex += 1;
    itemStart = -1;
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
          else if (code === 0x5c /* \ */) {
            escaped = true;
            stringEscaped = true;
          } else if (code === 0x22 /* " */) {
            inString = false;
            if (key !== undefined) {
              key.push(text.slice(keyFrom, index));
              endKey();
            }
            if (layout !== undefined && !stringIsKey)
              layout.addString(stringStart, offset + index, stringEscaped);
          }
          continue;
        }
        if (
          itemsKey !== undefined &&
          depth === 2 &&
          itemStart < 0 &&
          code > 0x20 &&
          code !== 0x2c &&
          code !== 0x5d
        )
          itemStart = offset + index;
        if (code === 0x22) {
          inString = true;
          values += 1;
          stringIsKey = keyNext;
          keyNext = false;
          stringStart = offset + index + 1;
          stringEscaped = false;
          if (depth === 1 && expectKey) {
            expectKey = false;
            key = [];
            keyFrom = index + 1;
          }
        } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
          depth += 1;
          values += 1;
          keyNext = code === 0x7b;
          if (depth === 1) {
            topIsObject = code === 0x7b;
            expectKey = topIsObject;
          }
          if (depth > MAX_MODEL_JSON_DEPTH) {
            problem = `the model's output nests deeper than ${MAX_MODEL_JSON_DEPTH} levels`;
            refusedAt = index;
            return problem;
          }
          objectAt[depth] = keyNext ? 1 : 0;
          if (layout !== undefined && depth === 2 && code === 0x5b && topIsObject) {
            itemsKey = lastKey;
            itemIndex = 0;
            itemStart = -1;
          }
        } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
          if (itemsKey !== undefined && depth === 2) {
            endItem(offset + index);
            itemsKey = undefined;
          }
          depth = Math.max(0, depth - 1);
          keyNext = false;
        } else if (code === 0x2c /* , */) {
          values += 1;
          keyNext = objectAt[depth] === 1;
          if (itemsKey !== undefined && depth === 2) endItem(offset + index);
          if (depth === 1) expectKey = topIsObject;
        } else continue;
        if (values > MAX_MODEL_JSON_VALUES) {
          problem = `the model's output holds more than ${MAX_MODEL_JSON_VALUES.toLocaleString("en-US")} JSON values`;
          refusedAt = index;
          return problem;
        }
      }
      if (key !== undefined) key.push(text.slice(keyFrom));
      offset += text.length;
      return undefined;
    },
  };
}
