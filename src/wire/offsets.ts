// Offsets in the caller's units. Inside the code every range counts UTF-16 code units (JavaScript's string
// index); a request's `offsets` asks for code points (Python's `str` index) or UTF-8 bytes instead, and the
// answer's ranges are converted here, once, as the result leaves for the wire.
import { splitsSurrogatePair } from "../util.js";

/** The unit a response's ranges count: UTF-16 code units (default), Unicode code points or UTF-8 bytes. */
export type OffsetUnit = "utf16" | "codepoint" | "utf8";

/** Which texts a result's ranges point into: the request's sources by id (and, later, the answer). */
export interface RangeTexts {
  /** Source id → the source's original text. */
  sources: ReadonlyMap<string, string>;
  /** The text an `answer_range` counts into, when the request had one. */
  answer?: string | undefined;
}

type RangeEntry = Record<string, unknown>;

/** The text of the source an entry names (`source`), if the request had it. */
const namedSource = (entry: RangeEntry, texts: RangeTexts) =>
  typeof entry.source === "string" ? texts.sources.get(entry.source) : undefined;

/**
 * The range fields a result may carry, each with the text it counts into. A new range field is one line
 * here; every converter below finds it by name.
 */
const rangeFields: Readonly<Record<string, (entry: RangeEntry, texts: RangeTexts) => string | undefined>> = {
  range: namedSource,
  answer_range: (_entry, texts) => texts.answer,
};

/**
 * Objects nested in an entry whose `range` counts into the entry's source: an unsupported claim's `near`
 * (where the named source holds the quote under lenient matching).
 */
const nestedRangeFields = ["near"] as const;

/** `entry[field]` when it is an object with a range: the nested object that range belongs to. */
function nestedWithRange(entry: RangeEntry, field: string): RangeEntry | undefined {
  const nested = entry[field];
  return typeof nested === "object" && nested !== null && isRange((nested as RangeEntry).range)
    ? (nested as RangeEntry)
    : undefined;
}

/**
 * `entry` with the range of each nested object (`near`) converted by `convert`, counted into the entry's
 * source; the same entry when it has none.
 */
export function convertNestedRanges<Entry extends object>(
  entry: Entry,
  texts: RangeTexts,
  convert: (text: string, range: [number, number]) => [number, number],
): Entry {
  const text = namedSource(entry as RangeEntry, texts);
  if (text === undefined) return entry;
  let copy: RangeEntry | undefined;
  for (const field of nestedRangeFields) {
    const nested = nestedWithRange(entry as RangeEntry, field);
    if (nested === undefined) continue;
    copy ??= { ...(entry as RangeEntry) };
    copy[field] = { ...nested, range: convert(text, nested.range as [number, number]) };
  }
  return (copy ?? entry) as Entry;
}

/** Source id → text, for `RangeTexts`. */
export function sourceTexts(sources: readonly { id: string; text: string }[]): ReadonlyMap<string, string> {
  return new Map(sources.map((source) => [source.id, source.text]));
}

/**
 * `entries` with every named range field (`range`, `answer_range`) converted from UTF-16 code units to
 * `unit`, counted in the text the field points into. Entries are copied, never changed; with `utf16` (or
 * no unit) the same array comes back. O(n + k log k) for texts of total length n and k ranges: each text is
 * walked once for all the offsets that point into it.
 */
export function convertRanges<Entry extends object>(
  entries: readonly Entry[],
  unit: OffsetUnit | undefined,
  texts: RangeTexts,
): Entry[] {
  if (unit === undefined || unit === "utf16" || entries.length === 0) return entries as Entry[];
  // First pass: every offset each text is asked for; then one walk per text; then the copies.
  const wanted = new Map<string, number[]>();
  const each = (visit: (range: [number, number], text: string) => void) => {
    for (const entry of entries) {
      for (const [field, textOf] of Object.entries(rangeFields)) {
        const range = (entry as RangeEntry)[field];
        const text = textOf(entry as RangeEntry, texts);
        if (isRange(range) && text !== undefined) visit(range, text);
      }
      const source = namedSource(entry as RangeEntry, texts);
      for (const field of nestedRangeFields) {
        const nested = nestedWithRange(entry as RangeEntry, field);
        if (nested !== undefined && source !== undefined) visit(nested.range as [number, number], source);
      }
    }
  };
  each((range, text) => {
    const offsets = wanted.get(text) ?? [];
    offsets.push(range[0], range[1]);
    wanted.set(text, offsets);
  });
  const converted = new Map<string, Map<number, number>>();
  for (const [text, offsets] of wanted) converted.set(text, convertOffsets(text, offsets, unit));
  const lookUp = (text: string, range: [number, number]): [number, number] => {
    const table = converted.get(text);
    return [table?.get(range[0]) ?? range[0], table?.get(range[1]) ?? range[1]];
  };
  return entries.map((entry) => {
    let copy: RangeEntry | undefined;
    for (const [field, textOf] of Object.entries(rangeFields)) {
      const range = (entry as RangeEntry)[field];
      const text = textOf(entry as RangeEntry, texts);
      if (!isRange(range) || text === undefined || !converted.has(text)) continue;
      copy ??= { ...(entry as RangeEntry) };
      copy[field] = lookUp(text, range);
    }
    return convertNestedRanges((copy ?? entry) as Entry, texts, lookUp);
  });
}

/** A create-style result (`citations`, `unsupported`) with its ranges in `unit`. */
export function convertResultRanges<
  Result extends { citations: object[]; unsupported: object[]; partial?: object[] | undefined },
>(result: Result, unit: OffsetUnit | undefined, texts: RangeTexts): Result {
  if (unit === undefined || unit === "utf16") return result;
  return {
    ...result,
    citations: convertRanges(result.citations, unit, texts),
    unsupported: convertRanges(result.unsupported, unit, texts),
    ...(result.partial === undefined ? {} : { partial: convertRanges(result.partial, unit, texts) }),
  };
}

/** Extract's `fields` map with each found field's range in `unit`. */
export function convertFieldRanges<Field extends object>(
  fields: Record<string, Field>,
  unit: OffsetUnit | undefined,
  texts: RangeTexts,
): Record<string, Field> {
  if (unit === undefined || unit === "utf16") return fields;
  const names = Object.keys(fields);
  const values = convertRanges(
    names.map((name) => fields[name] as Field),
    unit,
    texts,
  );
  // Object.fromEntries defines properties, so a field named "__proto__" stays an ordinary key.
  return Object.fromEntries(names.map((name, index) => [name, values[index] as Field]));
}

/**
 * Each UTF-16 offset of `offsets` into `text` → the same position counted in `unit`. One walk over the text
 * up to the largest offset: O(n + k log k). An offset inside a surrogate pair counts the pair as before it;
 * a lone surrogate counts as one code point (three bytes, as WTF-8 writes it).
 */
export function convertOffsets(
  text: string,
  offsets: readonly number[],
  unit: OffsetUnit,
): Map<number, number> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const result = new Map<number, number>();
  let index = 0;
  let counted = 0;
  for (const offset of sorted) {
    while (index < offset && index < text.length) {
      counted += unitsOf(text, index, unit);
      index += 1;
    }
    result.set(offset, counted);
  }
  return result;
}

/**
 * Offsets into a text that only grows at its end (a streamed answer), converted to `unit` each from where
 * the last one stopped: offsets asked in increasing order cost one walk over the text in all. One behind the
 * last starts the walk again from the text's start (a new attempt's answer). Same counts as `convertOffsets`.
 */
export function offsetCursor(unit: OffsetUnit | undefined): (text: string, offset: number) => number {
  let index = 0;
  let counted = 0;
  return (text, offset) => {
    if (unit === undefined || unit === "utf16") return offset;
    if (offset < index) {
      index = 0;
      counted = 0;
    }
    for (; index < offset && index < text.length; index += 1) counted += unitsOf(text, index, unit);
    return counted;
  };
}

/** Code units between two checkpoints of `offsetIndex`: the most one offset reads once its text is indexed. */
export const OFFSET_CHECKPOINT_UNITS = 256;

/**
 * Offsets into fixed texts (a request's sources), asked in any order and any number, converted to `unit`:
 * a text's counts at every OFFSET_CHECKPOINT_UNITS code units are taken on its first offset, in one walk,
 * so each offset then reads at most that many code units: O(n) per text once, O(OFFSET_CHECKPOINT_UNITS)
 * per offset, where `convertOffsets` for one offset at a time walks its text up to it each time. Same counts
 * as `convertOffsets`. With `counter`, the code units read.
 */
export function offsetIndex(
  unit: OffsetUnit | undefined,
  counter?: { steps: number },
): (text: string, offset: number) => number {
  const tables = new Map<string, Int32Array>();
  const step = OFFSET_CHECKPOINT_UNITS;
  return (text, offset) => {
    if (unit === undefined || unit === "utf16") return offset;
    let table = tables.get(text);
    if (table === undefined) {
      table = new Int32Array(Math.floor(text.length / step) + 1);
      let counted = 0;
      for (let index = 0; index < text.length; index++) {
        if (index % step === 0) table[index / step] = counted;
        counted += unitsOf(text, index, unit);
      }
      if (text.length % step === 0) table[text.length / step] = counted;
      tables.set(text, table);
      if (counter !== undefined) counter.steps += text.length;
    }
    const end = Math.max(0, Math.min(offset, text.length));
    const checkpoint = Math.floor(end / step);
    let counted = table[checkpoint] as number;
    for (let index = checkpoint * step; index < end; index++) counted += unitsOf(text, index, unit);
    if (counter !== undefined) counter.steps += end - checkpoint * step;
    return counted;
  };
}

/**
 * What the code unit at `index` adds in `unit`: a surrogate pair's high half carries the whole character
 * (1 code point, 4 bytes) and its low half nothing, so the count never depends on where a walk stops.
 */
function unitsOf(text: string, index: number, unit: OffsetUnit): number {
  if (unit === "utf16") return 1;
  if (splitsSurrogatePair(text, index)) return 0;
  if (unit === "codepoint") return 1;
  if (splitsSurrogatePair(text, index + 1)) return 4;
  const code = text.charCodeAt(index);
  return code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
}

export function isRange(value: unknown): value is [number, number] {
  return (
    Array.isArray(value) && value.length === 2 && Number.isInteger(value[0]) && Number.isInteger(value[1])
  );
}
