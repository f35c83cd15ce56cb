import { ServiceError } from "../errors/index.js";
import { MAX_EVAL_CASES, MAX_JSON_VALUES, MAX_SOURCES_PER_REQUEST } from "../limits.js";

/** What to count while scanning: eval bodies also count `cases`. */
export interface JsonBodyLimits {
  /** Refuse more than this many `cases` (eval only). */
  maxCases?: number | undefined;
  /** Refuse more than this many `sources`, at the top level or in one eval case. */
  maxSources: number;
  /** Refuse more than this many JSON values (objects, arrays, strings, numbers, literals) in all. */
  maxValues: number;
}

/** The limits of an eval body and of every other body. */
export const evalBodyLimits: JsonBodyLimits = {
  maxCases: MAX_EVAL_CASES,
  maxSources: MAX_SOURCES_PER_REQUEST,
  maxValues: MAX_JSON_VALUES,
};
export const requestBodyLimits: JsonBodyLimits = {
  maxSources: MAX_SOURCES_PER_REQUEST,
  maxValues: MAX_JSON_VALUES,
};

/** A container being scanned. `role` marks the arrays whose items are counted. */
interface Frame {
  kind: "object" | "array";
  /** Objects: the last key read. */
  key: string | undefined;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** Arrays: items so far. */
  items: number;
  role: "cases" | "sources" | "case" | "top" | undefined;
  /** `sources` arrays: the name a caller wrote (`sources`, `cases[3].sources`). */
  param: string;
  /** Objects: the value of a `constructor` key, where a `prototype` key is refused. */
  underConstructor: boolean;
  /** Where the container opens in the body (a byte offset). */
  start: number;
}

/** Where an object item of the top-level `cases` array is in the body's bytes: `bytes.subarray(start, end)`. */
export interface CaseRange {
  /** Its index in `cases`. */
  item: number;
  start: number;
  end: number;
}

/**
 * Checks a JSON body's shape before `JSON.parse` builds it, in one forward pass over its UTF-8 bytes (JSON's
 * structure is ASCII, and no byte of a multi-byte character is): O(n) steps in the body's length, O(depth)
 * memory. It refuses, with the registry error a caller would get after parsing:
 * - a `__proto__` key anywhere, or a `constructor` key whose value holds a `prototype` key (`invalid_request`;
 *   escaped spellings too), as Fastify's own parser did. A plain `constructor` key is data (an extract field
 *   may be named so): JSON.parse makes it an own property, and nothing merges bodies into prototypes;
 * - more than `maxCases` items in the top-level `cases` (`too_many_cases`, at item 201, so a 60 MiB body of
 *   21 million `{}` cases is refused after reading 201 of them, without building any);
 * - more than `maxSources` items in the top-level `sources` or in one case's `sources` (`sources_too_large`);
 * - more than `maxValues` JSON values in all (`invalid_request`), which bounds what parsing can allocate.
 * Anything malformed is left for `JSON.parse` to report; the scan never throws on it. With `caseRanges`, it
 * also lists where each object item of a single top-level `cases` array is (none when `cases` is given twice),
 * for `parseJsonBody` to parse them one by one.
 */
export function scanJsonBody(
  bytes: Buffer,
  limits: JsonBodyLimits,
  caseRanges?: CaseRange[],
): ServiceError | undefined {
  const stack: Frame[] = [];
  let values = 0;
  let casesArrays = 0;
  const length = bytes.length;
  for (let index = 0; index < length; index += 1) {
    const code = bytes[index] as number;
    // Whitespace, `:` and the insides of numbers and literals move nothing.
    if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x3a) continue;
    const frame = stack[stack.length - 1];
    if (code === 0x2c /* , */) {
      if (frame?.kind === "object") frame.expectKey = true;
      continue;
    }
    if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      const closed = stack.pop();
      const list = stack[stack.length - 1];
      if (caseRanges !== undefined && closed?.role === "case" && code === 0x7d && list !== undefined)
        caseRanges.push({ item: list.items - 1, start: closed.start, end: index + 1 });
      continue;
    }
    if (code === 0x22 /* " */) {
      const end = stringEnd(bytes, index);
      if (frame?.kind === "object" && frame.expectKey) {
        frame.key = decodeKey(bytes, index, end);
        frame.expectKey = false;
        if (frame.key === "__proto__" || (frame.underConstructor && frame.key === "prototype")) {
          const name = frame.key === "__proto__" ? '"__proto__"' : '"constructor": {"prototype": …}';
          return new ServiceError(
            "invalid_request",
            `The body holds a ${name} key, which is not allowed (it could pollute object prototypes).`,
          );
        }
        index = end;
        continue;
      }
      const problem = countValue(frame, limits, ++values);
      if (problem) return problem;
      index = end;
      continue;
    }
    // A value starts: an object, an array, or the first character of a number or literal. The other bytes
    // of a multi-byte character (malformed JSON) are part of it.
    if (code >= 0x80 && code <= 0xbf) continue;
    const isContainer = code === 0x7b /* { */ || code === 0x5b; /* [ */
    if (!isContainer && isInsideScalar(bytes, index)) continue;
    const problem = countValue(frame, limits, ++values);
    if (problem) return problem;
    if (isContainer) {
      const role = roleOf(stack, frame, code === 0x7b);
      if (role === "cases") casesArrays += 1;
      stack.push({
        kind: code === 0x7b ? "object" : "array",
        key: undefined,
        expectKey: code === 0x7b,
        items: 0,
        role,
        param:
          frame?.role === "case" ? `cases[${(stack[stack.length - 2]?.items ?? 1) - 1}].sources` : "sources",
        underConstructor: frame?.kind === "object" && frame.key === "constructor",
        start: index,
      });
    }
  }
  // JSON.parse keeps the last of two `cases`: the ranges of both would not say which items it keeps.
  if (caseRanges !== undefined && casesArrays > 1) caseRanges.length = 0;
  return undefined;
}

/** Counts one value inside `frame` (an item when `frame` is an array) and applies the limits. */
function countValue(
  frame: Frame | undefined,
  limits: JsonBodyLimits,
  values: number,
): ServiceError | undefined {
  if (values > limits.maxValues) {
    return new ServiceError(
      "invalid_request",
      `The body holds more than ${limits.maxValues.toLocaleString("en-US")} JSON values, the most one request may hold.`,
    );
  }
  if (frame?.kind !== "array") return undefined;
  frame.items += 1;
  if (frame.role === "cases" && limits.maxCases !== undefined && frame.items > limits.maxCases) {
    return new ServiceError(
      "too_many_cases",
      `"cases" holds more than ${limits.maxCases} cases; the limit is ${limits.maxCases} per request. Page larger datasets (the client's evalAll does).`,
      { param: "cases" },
    );
  }
  if (frame.role === "sources" && frame.items > limits.maxSources) {
    const limit = limits.maxSources.toLocaleString("en-US");
    return new ServiceError(
      "sources_too_large",
      `"${frame.param}" holds more than ${limit} sources; the limit is ${limit} per request (per case for eval). Merge small chunks into fewer sources.`,
      { param: frame.param },
    );
  }
  return undefined;
}

/** The role of a container about to open inside `parent` (the top of `stack`). */
function roleOf(stack: readonly Frame[], parent: Frame | undefined, isObject: boolean): Frame["role"] {
  if (parent === undefined) return isObject ? "top" : undefined;
  if (parent.kind === "array") return parent.role === "cases" && isObject ? "case" : undefined;
  if (isObject) return undefined;
  if (parent.role === "top" && parent.key === "cases" && stack.length === 1) return "cases";
  if ((parent.role === "top" || parent.role === "case") && parent.key === "sources") return "sources";
  return undefined;
}

/** Index of the quote that closes the string opening at `start` (or the body's end when unterminated). */
function stringEnd(bytes: Buffer, start: number): number {
  let index = start + 1;
  for (;;) {
    const quote = bytes.indexOf(0x22, index);
    if (quote < 0) return bytes.length;
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    index = quote + 1;
  }
}

/** The key's value with escapes resolved (`"\u0063onstructor"` is `constructor`); raw text if malformed. */
function decodeKey(bytes: Buffer, start: number, end: number): string {
  const raw = bytes.toString("utf8", start + 1, end);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** Whether the character at `index` continues a number or literal begun before it (`1e5`, `true`). */
function isInsideScalar(bytes: Buffer, index: number): boolean {
  const previous = bytes[index - 1];
  if (previous === undefined) return false;
  return (
    (previous >= 0x30 && previous <= 0x39) || // digits
    (previous >= 0x61 && previous <= 0x7a) || // a-z: true, false, null, and `e` of exponents
    previous === 0x2e || // .
    previous === 0x2b || // +
    previous === 0x2d || // -
    previous === 0x45 // E
  );
}
