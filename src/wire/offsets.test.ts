import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  convertFieldRanges,
  convertOffsets,
  convertRanges,
  convertResultRanges,
  OFFSET_CHECKPOINT_UNITS,
  type OffsetUnit,
  offsetCursor,
  offsetIndex,
} from "./offsets.js";

// Ranges leave in the caller's unit: what Python's `text[start:end]` (code points) or a UTF-8 byte slice
// gives must be the quote that JavaScript's `text.slice(start, end)` gives in UTF-16 code units.

/** Pieces that tell the units apart: astral characters, combining marks, CRLF, two- and three-byte letters. */
const pieces = ["a", "Z", " ", "é", "e\u0301", "😀", "👩🏽‍💻", "𝔘", "\r\n", "\n", "中", "ß", "$", "\u00a0"];
const texts = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(""));

/** A UTF-16 `[start, end)` on code-point boundaries (never inside a surrogate pair), as every quote's range is. */
const rangeIn = (text: string) => {
  const boundaries = [0];
  for (const char of text) boundaries.push((boundaries.at(-1) ?? 0) + char.length);
  return fc
    .tuple(fc.nat({ max: boundaries.length - 1 }), fc.nat({ max: boundaries.length - 1 }))
    .map(([a, b]) => [boundaries[Math.min(a, b)] ?? 0, boundaries[Math.max(a, b)] ?? 0] as [number, number]);
};

/** The slice of `text` that `range`, counted in `unit`, names, as that unit's language would cut it. */
function sliceIn(unit: OffsetUnit, text: string, [start, end]: [number, number]): string {
  if (unit === "utf16") return text.slice(start, end);
  if (unit === "codepoint") return Array.from(text).slice(start, end).join("");
  return Buffer.from(text, "utf8").subarray(start, end).toString("utf8");
}

const units: OffsetUnit[] = ["utf16", "codepoint", "utf8"];

describe("convertRanges", () => {
  it.each(units)("keeps slice(range) === quote in %s units on astral, combining and CRLF text", (unit) => {
    fc.assert(
      fc.property(
        texts.chain((text) => fc.tuple(fc.constant(text), fc.array(rangeIn(text), { maxLength: 6 }))),
        ([text, ranges]) => {
          const entries = ranges.map((range) => ({ quote: text.slice(...range), source: "s", range }));
          const converted = convertRanges(entries, unit, { sources: new Map([["s", text]]) });
          for (const entry of converted) expect(sliceIn(unit, text, entry.range)).toBe(entry.quote);
        },
      ),
    );
  });

  it("counts an astral character as 2 code units, 1 code point and 4 bytes", () => {
    const text = "😀 Orders over $50 ship free.";
    const entry = { quote: "Orders", source: "s", range: [3, 9] as [number, number] };
    const sources = new Map([["s", text]]);
    expect(convertRanges([entry], "utf16", { sources })[0]?.range).toEqual([3, 9]);
    expect(convertRanges([entry], "codepoint", { sources })[0]?.range).toEqual([2, 8]);
    expect(convertRanges([entry], "utf8", { sources })[0]?.range).toEqual([5, 11]);
  });

  it("converts answer_range against the answer and range against its source", () => {
    const entry = { claim: "é", source: "s", range: [2, 3] as [number, number], answer_range: [1, 3] };
    const [converted] = convertRanges([entry], "utf8", { sources: new Map([["s", "😀é"]]), answer: "éé!" });
    expect(converted).toEqual({ claim: "é", source: "s", range: [4, 6], answer_range: [2, 5] });
  });

  it("leaves entries without a known text, and the input, unchanged", () => {
    const entries = [{ source: "missing", range: [1, 2] }, { claim: "no range" }];
    const converted = convertRanges(entries, "codepoint", { sources: new Map([["s", "😀"]]) });
    expect(converted).toEqual(entries);
    const known = [{ source: "s", range: [2, 2] as [number, number] }];
    convertRanges(known, "codepoint", { sources: new Map([["s", "😀"]]) });
    expect(known).toEqual([{ source: "s", range: [2, 2] }]);
  });

  it("converts a result's citations and unsupported claims, and extract's fields by name", () => {
    const sources = new Map([["s", "ünï"]]);
    const result = convertResultRanges(
      { citations: [{ source: "s", range: [1, 3] }], unsupported: [{ claim: "x" }], coverage: 1 },
      "utf8",
      { sources },
    );
    expect(result).toEqual({
      citations: [{ source: "s", range: [2, 5] }],
      unsupported: [{ claim: "x" }],
      coverage: 1,
    });
    const fields = convertFieldRanges(
      { range: { value: "n", source: "s", range: [1, 2] }, other: { value: null } },
      "utf8",
      { sources },
    );
    expect(fields).toEqual({ range: { value: "n", source: "s", range: [2, 3] }, other: { value: null } });
  });
});

describe("convertOffsets", () => {
  it("walks each text once for all its offsets: the same answer as counting each alone", () => {
    fc.assert(
      fc.property(
        texts.chain((text) =>
          fc.tuple(fc.constant(text), fc.array(fc.nat({ max: text.length }), { maxLength: 8 })),
        ),
        fc.constantFrom<OffsetUnit>("codepoint", "utf8"),
        ([text, offsets], unit) => {
          const all = convertOffsets(text, offsets, unit);
          for (const offset of offsets)
            expect(all.get(offset)).toBe(convertOffsets(text, [offset], unit).get(offset));
        },
      ),
    );
  });
});

describe("offsets against an independent oracle", () => {
  // What the unit counts up to a UTF-16 offset, by the platform: `Array.from` (code points, a lone surrogate
  // one) and `Buffer.byteLength` (UTF-8, a lone surrogate three bytes as U+FFFD). An offset inside a pair
  // counts the whole pair before it.
  const oracle = (unit: OffsetUnit, text: string, offset: number): number => {
    const high = text.charCodeAt(offset - 1);
    const low = text.charCodeAt(offset);
    const insidePair = high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
    const prefix = text.slice(0, insidePair ? offset + 1 : offset);
    if (unit === "utf16") return offset;
    return unit === "codepoint" ? Array.from(prefix).length : Buffer.byteLength(prefix, "utf8");
  };
  // Lone surrogates of both halves and pairs next to them, besides the pieces above.
  const wild = fc
    .array(fc.constantFrom(...pieces, "\ud800", "\udc00", "\udbff\udfff", "\ud83d", "\ude00x"), {
      maxLength: 30,
    })
    .map((parts) => parts.join(""));
  // Any UTF-16 offsets, the middle of a pair included, in any order.
  const withOffsets = wild.chain((text) =>
    fc.tuple(fc.constant(text), fc.array(fc.nat({ max: text.length }), { minLength: 1, maxLength: 10 })),
  );

  it.each(units)("convertOffsets counts as Array.from and Buffer.byteLength do: %s", (unit) => {
    fc.assert(
      fc.property(withOffsets, ([text, offsets]) => {
        const converted = convertOffsets(text, offsets, unit);
        for (const offset of offsets) expect(converted.get(offset)).toBe(oracle(unit, text, offset));
      }),
      { seed: 34, numRuns: 500 },
    );
  });

  it.each(units)("convertRanges converts range and answer_range as the oracle: %s", (unit) => {
    fc.assert(
      fc.property(withOffsets, withOffsets, ([source, sourceOffsets], [answer, answerOffsets]) => {
        const [a = 0, b = a] = sourceOffsets;
        const [c = 0, d = c] = answerOffsets;
        const entry = {
          source: "s",
          range: [a, b] as [number, number],
          answer_range: [c, d] as [number, number],
        };
        const [converted] = convertRanges([entry], unit, { sources: new Map([["s", source]]), answer });
        expect(converted?.range).toEqual([oracle(unit, source, a), oracle(unit, source, b)]);
        expect(converted?.answer_range).toEqual([oracle(unit, answer, c), oracle(unit, answer, d)]);
      }),
      { seed: 34, numRuns: 500 },
    );
  });

  // Texts long enough to hold several of offsetIndex's checkpoints, a pair possibly across one.
  const longWithOffsets = wild.chain((text) => {
    const long = text.repeat(Math.ceil((3 * OFFSET_CHECKPOINT_UNITS) / Math.max(1, text.length)));
    return fc.tuple(
      fc.constant(long),
      fc.array(fc.nat({ max: long.length }), { minLength: 1, maxLength: 20 }),
    );
  });

  it.each(units)("offsetIndex counts as the oracle, offsets in any order: %s", (unit) => {
    fc.assert(
      fc.property(longWithOffsets, ([text, offsets]) => {
        const offsetOf = offsetIndex(unit);
        for (const offset of offsets) expect(offsetOf(text, offset)).toBe(oracle(unit, text, offset));
      }),
      { seed: 34, numRuns: 200 },
    );
  });

  it("offsetIndex reads a text once, then at most OFFSET_CHECKPOINT_UNITS code units per offset", () => {
    const text = "é😀 a".repeat(50_000);
    const counter = { steps: 0 };
    const offsetOf = offsetIndex("utf8", counter);
    const offsets = 2_000;
    for (let at = 0; at < offsets; at++) offsetOf(text, text.length - 1 - at);
    expect(counter.steps).toBeLessThanOrEqual(text.length + offsets * OFFSET_CHECKPOINT_UNITS);
  });

  it.each(units)("offsetCursor, over a text that grows, counts as the oracle in any order: %s", (unit) => {
    fc.assert(
      fc.property(withOffsets, ([text, offsets]) => {
        const cursor = offsetCursor(unit);
        // Offsets asked in order while the text grows (each asked of the prefix that holds it), then any.
        for (const offset of [...offsets].sort((x, y) => x - y)) {
          expect(cursor(text.slice(0, offset + 1), offset)).toBe(oracle(unit, text, offset));
        }
        for (const offset of offsets) expect(cursor(text, offset)).toBe(oracle(unit, text, offset));
      }),
      { seed: 34, numRuns: 500 },
    );
  });
});
