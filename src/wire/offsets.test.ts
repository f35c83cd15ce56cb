import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  convertFieldRanges,
  convertOffsets,
  convertRanges,
  convertResultRanges,
  type OffsetUnit,
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
