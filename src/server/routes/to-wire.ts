// The service's outcomes in the wire's snake_case shapes, for JSON answers and for streamed events. Ranges
// leave in the request's `offsets` unit: they are converted here, once (src/wire/offsets.ts).
import { ServiceError } from "../../errors/index.js";
import { EVAL_ANSWER_CHUNK_CHARS, STREAM_KEPT_EVENT_CHARS } from "../../limits.js";
import { nextTurn } from "../../models/index.js";
import {
  type CreateOutcome,
  type EvalCaseOutcome,
  type EvalOutcome,
  usageToWire,
} from "../../service/index.js";
import {
  type CreateResult,
  convertNestedRanges,
  convertOffsets,
  convertRanges,
  convertResultRanges,
  type EvalResult,
  isRange,
  type OffsetUnit,
  offsetIndex,
  sourceTexts,
} from "../../wire/index.js";
import { withRequestId } from "../plugins/index.js";

/** The unit a request asked its ranges in, and the sources they count into. */
export interface WireRanges {
  unit: OffsetUnit | undefined;
  sources: readonly { id: string; text: string }[];
}

/** The wire result of create, streamed (`done`) or not. */
export function createResultToWire(
  id: string,
  model: string,
  outcome: CreateOutcome,
  ranges: WireRanges,
): CreateResult {
  return convertResultRanges(
    {
      id,
      model,
      text: outcome.text,
      citations: outcome.citations,
      unsupported: outcome.unsupported,
      ...(outcome.partial === undefined ? {} : { partial: outcome.partial }),
      ...(outcome.answer === undefined ? {} : { answer: outcome.answer }),
      coverage: outcome.coverage,
      abstained: outcome.abstained,
      grounded: outcome.grounded,
      usage: usageToWire(outcome.usage),
    },
    ranges.unit,
    { sources: sourceTexts(ranges.sources), answer: outcome.answer },
  );
}

/**
 * The converter of one stream's claim and unsupported entries to the wire, their ranges in the request's unit:
 * `range` into its source, and a prose answer's `answer_range` into `answer` (the text the stream has so far),
 * through the stream's cursors (`answerOffsets`: one for starts and one for ends, as entries come in answer
 * order). The sources' map and their offsets' index (`offsetIndex`) are made once for the stream, so an entry
 * reads at most OFFSET_CHECKPOINT_UNITS code units of its source per offset, not its source up to the range:
 * a stream of thousands of entries into a large source reads it once. With `counter`, the code units read.
 */
export function entryConverter(
  ranges: WireRanges,
  counter?: { steps: number },
): <Entry extends object>(
  entry: Entry,
  answer?: { text: string; starts: AnswerOffsets; ends: AnswerOffsets },
) => Entry {
  const texts = sourceTexts(ranges.sources);
  const sourceOffset = offsetIndex(ranges.unit, counter);
  const converts = ranges.unit !== undefined && ranges.unit !== "utf16";
  const convertRange = (text: string, range: [number, number]): [number, number] => [
    sourceOffset(text, range[0]),
    sourceOffset(text, range[1]),
  ];
  return (entry, answer) => {
    const { source, range } = entry as { source?: unknown; range?: unknown };
    const text = typeof source === "string" ? texts.get(source) : undefined;
    const withRange =
      converts && text !== undefined && isRange(range)
        ? { ...entry, range: convertRange(text, range) }
        : entry;
    // An unsupported claim's `near.range` counts into the same source.
    const converted = converts ? convertNestedRanges(withRange, { sources: texts }, convertRange) : withRange;
    const answerRange = (converted as { answer_range?: unknown }).answer_range;
    // In UTF-16 (the service's own unit) the answer's offsets are already the wire's: no copy of the entry.
    if (answer === undefined || !converts || !Array.isArray(answerRange) || answerRange.length !== 2)
      return converted;
    const [start, end] = answerRange as [number, number];
    return {
      ...converted,
      answer_range: [answer.starts(answer.text, start), answer.ends(answer.text, end)],
    };
  };
}

/**
 * `error` with the ranges of its failed claims (an `ungrounded` create's `unsupported`) in the request's unit,
 * as a result's are; any other error as it is.
 */
export function errorToWire(error: unknown, ranges: WireRanges): unknown {
  if (!(error instanceof ServiceError) || error.details.unsupported === undefined) return error;
  if (ranges.unit === undefined || ranges.unit === "utf16") return error;
  const texts = { sources: sourceTexts(ranges.sources), answer: error.details.answer };
  const unsupported = convertRanges(error.details.unsupported, ranges.unit, texts);
  return new ServiceError(error.type, error.message, { ...error.details, unsupported });
}

/** A stream's converter of `answer_range` offsets (`offsetCursor`). */
export type AnswerOffsets = (text: string, offset: number) => number;

/** The wire result of eval, streamed (`done`) or not; `cases` are the request's, for the ranges' sources. */
export function evalResultToWire(
  outcome: EvalOutcome,
  unit: OffsetUnit | undefined,
  cases: readonly { sources: { id: string; text: string }[] }[],
): EvalResult {
  return {
    aggregate: {
      coverage_mean: outcome.aggregate.coverageMean,
      unsupported_rate: outcome.aggregate.unsupportedRate,
      n: outcome.aggregate.n,
      errored: outcome.aggregate.errored,
      ...(outcome.aggregate.correctRate === undefined ? {} : { correct_rate: outcome.aggregate.correctRate }),
    },
    cases: outcome.cases.map((result, index) =>
      caseToWire(result, { unit, sources: cases[index]?.sources ?? [] }),
    ) as EvalResult["cases"],
    usage: { total_tokens: outcome.usage.totalTokens, model_calls: outcome.usage.modelCalls },
  };
}

/** One case on the wire: its `result`, when kept, in create's snake_case shape, or why it was not kept. */
export function caseToWire(outcome: EvalCaseOutcome, ranges: WireRanges) {
  if ("error" in outcome) return outcome;
  const { result, resultOmitted, ...scores } = outcome;
  if (resultOmitted !== undefined) return { ...scores, result_omitted: resultOmitted };
  if (result === undefined) return scores;
  return { ...scores, result: caseResultToWire(result, ranges) };
}

/** A case's create-style result on the wire (what `details` keeps), its ranges in the request's unit. */
export function caseResultToWire(result: CreateOutcome, ranges: WireRanges) {
  return convertResultRanges(
    {
      text: result.text,
      citations: result.citations,
      unsupported: result.unsupported,
      ...(result.partial === undefined ? {} : { partial: result.partial }),
      ...(result.answer === undefined ? {} : { answer: result.answer }),
      coverage: result.coverage,
      abstained: result.abstained,
      grounded: result.grounded,
      usage: usageToWire(result.usage),
    },
    ranges.unit,
    { sources: sourceTexts(ranges.sources), answer: result.answer },
  );
}

/**
 * An eval case's `match.range` (into the matched claim's text) in `unit`, for `EvalHooks.matchRange`;
 * undefined when the unit is UTF-16, the service's own.
 */
export function matchRangeOnWire(
  unit: OffsetUnit | undefined,
): ((claim: string, range: [number, number]) => [number, number]) | undefined {
  if (unit === undefined || unit === "utf16") return undefined;
  return (claim, range) => {
    const table = convertOffsets(claim, range, unit);
    return [table.get(range[0]) ?? range[0], table.get(range[1]) ?? range[1]];
  };
}

/** How many characters a case's result counts against the details budget: its JSON on the wire. */
export function resultCharsOnWire(
  cases: readonly { sources: { id: string; text: string }[] }[],
  unit: OffsetUnit | undefined,
): (index: number, result: CreateOutcome) => number {
  return (index, result) =>
    JSON.stringify(caseResultToWire(result, { unit, sources: cases[index]?.sources ?? [] })).length;
}

/**
 * The JSON of a result (exactly `JSON.stringify(result)`) in chunks of about `chunkChars`, entry by entry of its
 * arrays (an eval's `cases`, a check's `citations` and `unsupported`), with a turn of the event loop between
 * chunks: a large answer (a 4 MiB answer's check result is 5 to 13 MB, an eval's up to its details budget)
 * never holds the loop for long, and a reader that stops reading stops the serializing (a stream pulls the
 * next chunk when it needs it).
 */
export async function* resultChunks(
  result: object,
  chunkChars = EVAL_ANSWER_CHUNK_CHARS,
  known?: KnownJson,
): AsyncGenerator<string> {
  let chunk = "{";
  let firstKey = true;
  for (const [key, value] of Object.entries(result)) {
    if (value === undefined) continue;
    chunk += `${firstKey ? "" : ","}${JSON.stringify(key)}:`;
    firstKey = false;
    if (!Array.isArray(value)) {
      chunk += JSON.stringify(value);
      continue;
    }
    chunk += "[";
    for (const [index, entry] of value.entries()) {
      chunk += `${index === 0 ? "" : ","}${known?.(key, index, entry) ?? JSON.stringify(entry)}`;
      if (chunk.length >= chunkChars) {
        yield chunk;
        chunk = "";
        await nextTurn();
      }
    }
    chunk += "]";
  }
  yield `${chunk}}`;
}

/**
 * The JSON already made of an entry of a result's array (`key`, at `index`), exactly `JSON.stringify(entry)`, or
 * undefined: `resultChunks` then serialises it.
 */
export type KnownJson = (key: string, index: number, entry: unknown) => string | undefined;

/**
 * The JSON of the entries a stream sent as events, kept in the order sent, up to STREAM_KEPT_EVENT_CHARS
 * characters: `known` gives an event's JSON for the entry at the same place of the result's array when the two
 * are equal (`sameJson`), so `done` does not serialise again what the events did. O(entry) per lookup.
 */
export function keptEventJson(): {
  keep(key: "citations" | "unsupported", entry: unknown, json: string): void;
  known: KnownJson;
} {
  const kept = {
    citations: [] as ({ entry: unknown; json: string } | undefined)[],
    unsupported: [] as ({ entry: unknown; json: string } | undefined)[],
  };
  let chars = 0;
  return {
    keep(key, entry, json) {
      if (chars + json.length > STREAM_KEPT_EVENT_CHARS) return;
      chars += json.length;
      kept[key].push({ entry, json });
    },
    known(key, index, entry) {
      if (key !== "citations" && key !== "unsupported") return undefined;
      const sent = kept[key][index];
      // Each kept entry is written once: it is let go as it is.
      kept[key][index] = undefined;
      return sent !== undefined && sameJson(sent.entry, entry) ? sent.json : undefined;
    },
  };
}

/**
 * Whether `a` and `b` serialise to the same JSON because they hold the same plain data: one value (`===`; NaN is
 * never equal), arrays of such, and objects of Object's prototype with the same keys in the same order holding
 * such (or of no prototype). False whenever unsure (another prototype, a `toJSON`, unless one object): the caller
 * then serialises. O(size), O(1) for one object.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  // One object (a stream's event and its result share the parts a conversion did not copy): the same data.
  if (a === b) return true;
  if (typeof a !== "object" || a === null) return false;
  if (typeof b !== "object" || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (key !== otherKeys[index]) return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

const isPlainObject = (value: object): boolean => {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !("toJSON" in value);
};

/**
 * The JSON body of an error whose failed claims (`unsupported`) hold more than `chunkChars` characters of
 * claims and quotes, in chunks as `resultChunks` writes a result: `{"error":` first, then the error's fields,
 * its entries a chunk at a time with a turn of the event loop between chunks; null for a smaller error, which
 * is written in one piece. A 422 `ungrounded` of a model's prose answer of megabytes lists megabytes of claims
 * (the JSON answer's body, or a stream's `error` event's data).
 */
export function errorBodyChunks(
  error: ServiceError,
  requestId: string,
  chunkChars = EVAL_ANSWER_CHUNK_CHARS,
  known?: KnownJson,
): AsyncGenerator<string> | null {
  let chars = 0;
  for (const entry of error.details.unsupported ?? [])
    chars += entry.claim.length + ((entry as { quote?: string }).quote?.length ?? 0);
  if (chars <= chunkChars) return null;
  return chunksOfError(withRequestId(error.toBody(), requestId).error, chunkChars, known);
}

async function* chunksOfError(error: object, chunkChars: number, known?: KnownJson): AsyncGenerator<string> {
  yield '{"error":';
  yield* resultChunks(error, chunkChars, known);
  yield "}";
}
