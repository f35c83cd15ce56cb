import { describe, expect, it } from "vitest";
import type { Citation, Range, UnsupportedClaim } from "../../client/index.js";
import {
  type AnswerClaimSegment,
  type AnswerSegment,
  answerClaimSegments,
  answerSegments,
  dropInWords,
  highlightPieces,
  highlightRange,
  markdownLayout,
  reasonInWords,
  triedInWords,
} from "./result-text.js";

const cite = (source: string, quote = "q"): Citation => ({
  claim: "c",
  quote,
  source,
  range: [0, quote.length],
});

describe("answerSegments", () => {
  it.each<{ name: string; text: string; citations: Citation[]; expected: AnswerSegment[] }>([
    {
      name: "one marker per claim",
      text: "It rose [a]. It fell [b].",
      citations: [cite("a"), cite("b")],
      expected: [
        { kind: "text", text: "It rose " },
        { kind: "citation", citationIndex: 0, label: "[a]" },
        { kind: "text", text: ". It fell " },
        { kind: "citation", citationIndex: 1, label: "[b]" },
        { kind: "text", text: "." },
      ],
    },
    {
      name: "the same source twice maps to its citations in order",
      text: "X [a] Y [b] Z [a]",
      citations: [cite("a", "x"), cite("b"), cite("a", "z")],
      expected: [
        { kind: "text", text: "X " },
        { kind: "citation", citationIndex: 0, label: "[a]" },
        { kind: "text", text: " Y " },
        { kind: "citation", citationIndex: 1, label: "[b]" },
        { kind: "text", text: " Z " },
        { kind: "citation", citationIndex: 2, label: "[a]" },
      ],
    },
    {
      name: "brackets naming no citation stay text",
      text: "See [1] and [note.md] [x]",
      citations: [cite("note.md")],
      expected: [
        { kind: "text", text: "See [1] and " },
        { kind: "citation", citationIndex: 0, label: "[note.md]" },
        { kind: "text", text: " [x]" },
      ],
    },
    {
      name: "a citation without a marker is appended",
      text: "Plain text.",
      citations: [cite("a")],
      expected: [
        { kind: "text", text: "Plain text. " },
        { kind: "citation", citationIndex: 0, label: "[a]" },
      ],
    },
    {
      name: "no citations",
      text: "I answer only from sources.",
      citations: [],
      expected: [{ kind: "text", text: "I answer only from sources." }],
    },
    { name: "empty text", text: "", citations: [], expected: [] },
  ])("$name", ({ text, citations, expected }) => {
    expect(answerSegments(text, citations)).toEqual(expected);
  });
});

describe("highlightRange", () => {
  it.each<{ name: string; text: string; range: Range; expected: ReturnType<typeof highlightRange> }>([
    {
      name: "a range in the middle",
      text: "Revenue rose 12% in Q3.",
      range: [8, 16],
      expected: { before: "Revenue ", highlighted: "rose 12%", after: " in Q3." },
    },
    {
      name: "the whole text",
      text: "abc",
      range: [0, 3],
      expected: { before: "", highlighted: "abc", after: "" },
    },
    {
      name: "an empty range at the end",
      text: "abc",
      range: [3, 3],
      expected: { before: "abc", highlighted: "", after: "" },
    },
    {
      name: "UTF-16 code units, not code points (the emoji is two units)",
      text: "a😀b café",
      range: [1, 4],
      expected: { before: "a", highlighted: "😀b", after: " café" },
    },
    { name: "end past the text", text: "abc", range: [1, 4], expected: null },
    { name: "negative start", text: "abc", range: [-1, 2], expected: null },
    { name: "end before start", text: "abc", range: [2, 1], expected: null },
    { name: "fractional offsets", text: "abc", range: [0.5, 2], expected: null },
  ])("$name", ({ text, range, expected }) => {
    expect(highlightRange(text, range)).toEqual(expected);
  });

  it("splits at the range even when the quote also occurs earlier", () => {
    // The second "the cat" is the cited one; a search would find the first.
    const text = "the cat sat; later the cat slept";
    const parts = highlightRange(text, [19, 26]);
    expect(parts).toEqual({ before: "the cat sat; later ", highlighted: "the cat", after: " slept" });
  });

  it("reassembles the original text for every range of a planted span", () => {
    const text = "α β γ — 42 units, then 4.2 units.";
    for (let start = 0; start <= text.length; start++) {
      for (let end = start; end <= text.length; end++) {
        const parts = highlightRange(text, [start, end]);
        expect(parts).not.toBeNull();
        if (parts === null) continue;
        expect(parts.before + parts.highlighted + parts.after).toBe(text);
        expect(parts.highlighted).toBe(text.slice(start, end));
      }
    }
  });
});

describe("highlightPieces", () => {
  const text = "One. Two. Three. Four. Five.";
  it.each<{ name: string; ranges: Range[]; expected: ReturnType<typeof highlightPieces> }>([
    {
      name: "two sentences apart, given out of order (pooled support)",
      ranges: [
        [17, 22],
        [0, 4],
      ],
      expected: [
        { text: "One.", highlighted: true },
        { text: " Two. Three. ", highlighted: false },
        { text: "Four.", highlighted: true },
        { text: " Five.", highlighted: false },
      ],
    },
    {
      name: "overlapping and touching ranges as one",
      ranges: [
        [5, 9],
        [0, 5],
        [7, 16],
      ],
      expected: [
        { text: "One. Two. Three.", highlighted: true },
        { text: " Four. Five.", highlighted: false },
      ],
    },
    {
      name: "one range reaching the end",
      ranges: [[23, 28]],
      expected: [
        { text: "One. Two. Three. Four. ", highlighted: false },
        { text: "Five.", highlighted: true },
      ],
    },
    {
      name: "a range past the end: null",
      ranges: [
        [0, 4],
        [23, 29],
      ],
      expected: null,
    },
  ])("$name", ({ ranges, expected }) => {
    expect(highlightPieces(text, ranges)).toEqual(expected);
  });

  it("reassembles the text and highlights exactly the ranges' characters, for every pair of ranges", () => {
    const short = "α β — 4.2";
    for (let a = 0; a <= short.length; a++) {
      for (let b = a; b <= short.length; b++) {
        for (let c = 0; c <= short.length; c += 2) {
          const pieces = highlightPieces(short, [
            [a, b],
            [c, Math.min(short.length, c + 2)],
          ]);
          expect(pieces?.map((piece) => piece.text).join("")).toBe(short);
          let at = 0;
          for (const piece of pieces ?? []) {
            for (let index = at; index < at + piece.text.length; index++) {
              const inside = (index >= a && index < b) || (index >= c && index < c + 2);
              expect(piece.highlighted).toBe(inside);
            }
            at += piece.text.length;
          }
        }
      }
    }
  });
});

describe("reasonInWords", () => {
  it.each([
    ["quote_not_found", "quote not found in the source"],
    ["unknown_source", "cites a source that was not supplied"],
    ["number_not_found", "a number is not in the cited source/cell"],
    ["not_found", "not found in any source"],
    ["no_support", "no span of the sources supports it"],
    ["entity_not_found", "names something no source mentions"],
    ["wrong_source", "its cited source does not support it; another does"],
    ["something_new", "something_new"],
    ["toString", "toString"],
  ])("%s → %s", (reason, expected) => {
    expect(reasonInWords(reason)).toBe(expected);
  });
});

describe("answerClaimSegments", () => {
  const answer = "A holds [1]. B and C [1][2].\n\nD is new [2].";
  const citeAt = (source: string, answerRange: Range): Citation => ({
    ...cite(source),
    answerRange,
  });
  const dropAt = (answerRange: Range): UnsupportedClaim => ({
    claim: "D is new.",
    reason: "no_support",
    answerRange,
  });

  it("cuts the answer at each claim's answer range, one claim for citations that share a range", () => {
    const expected: AnswerClaimSegment[] = [
      {
        kind: "claim",
        text: "A holds [1].",
        range: [0, 12],
        citationIndexes: [0],
        unsupportedIndex: undefined,
      },
      { kind: "text", text: " " },
      {
        kind: "claim",
        text: "B and C [1][2].",
        range: [13, 28],
        citationIndexes: [1, 2],
        unsupportedIndex: undefined,
      },
      { kind: "text", text: "\n\n" },
      { kind: "claim", text: "D is new [2].", range: [30, 43], citationIndexes: [], unsupportedIndex: 0 },
    ];
    expect(
      answerClaimSegments(
        answer,
        [citeAt("1", [0, 12]), citeAt("1", [13, 28]), citeAt("2", [13, 28])],
        [dropAt([30, 43])],
      ),
    ).toEqual(expected);
  });

  it("orders claims by position whatever the order of citations and drops", () => {
    const segments = answerClaimSegments(answer, [citeAt("1", [13, 28])], [dropAt([0, 12])]);
    expect(segments.map((segment) => segment.text)).toEqual([
      "A holds [1].",
      " ",
      "B and C [1][2].",
      "\n\nD is new [2].",
    ]);
  });

  it("leaves a range that does not fit or overlaps an earlier claim as plain text", () => {
    const segments = answerClaimSegments(
      answer,
      [citeAt("1", [0, 12]), citeAt("1", [5, 20]), citeAt("2", [40, 99])],
      [],
    );
    expect(segments).toEqual([
      {
        kind: "claim",
        text: "A holds [1].",
        range: [0, 12],
        citationIndexes: [0],
        unsupportedIndex: undefined,
      },
      { kind: "text", text: answer.slice(12) },
    ]);
  });

  it("gives the whole answer as text when nothing carries an answer range (a claims result)", () => {
    expect(answerClaimSegments(answer, [cite("1")], [{ claim: "x", reason: "quote_not_found" }])).toEqual([
      { kind: "text", text: answer },
    ]);
  });
});

describe("answerClaimSegments: claims as coverage counts them", () => {
  it("makes one claim of a kept claim's clauses, whose ranges touch end to end", () => {
    const answer = "Revenue rose 12% in 2024 [a], and the office moved to Lyon [b]. Hired 40 [a].";
    const clause = (source: string, answerRange: Range): Citation => ({ ...cite(source), answerRange });
    const segments = answerClaimSegments(
      answer,
      [clause("a", [0, 28]), clause("b", [28, 63]), clause("a", [64, 77])],
      [],
    );
    const claims = segments.filter((segment) => segment.kind === "claim");
    expect(claims.map((claim) => [claim.range, claim.citationIndexes])).toEqual([
      [
        [0, 63],
        [0, 1],
      ],
      [[64, 77], [2]],
    ]);
  });
});

describe("markdownLayout", () => {
  const shown = (answer: string) => {
    const { blocks, markup } = markdownLayout(answer);
    const hidden = new Set(
      markup.flatMap(([start, end]) => Array.from({ length: end - start }, (_, i) => start + i)),
    );
    return blocks.map((block) => [
      block.kind,
      [...answer.slice(block.start, block.end)].filter((_, i) => !hidden.has(block.start + i)).join(""),
    ]);
  };

  it("shows headings, bullets, numbered items and paragraphs without their markup", () => {
    const answer =
      "## Summary\n\n**Q4** was strongest [report].\nIt `grew` fast.\n\n- Sales in [Berlin](https://x.example/b) rose [1].\n* Costs fell [2].\n1. First [1].";
    expect(shown(answer)).toEqual([
      ["heading", "Summary"],
      ["paragraph", "Q4 was strongest [report].\nIt grew fast."],
      ["bullet", "Sales in Berlin rose [1]."],
      ["bullet", "Costs fell [2]."],
      ["numbered", "1. First [1]."],
    ]);
  });

  it("keeps citation markers, lone stars and brackets as text, and offsets as in the answer", () => {
    const answer = "5 * 3 is 15 [1] (see [2]). A [b] c.\r\nNext line.";
    const { blocks, markup } = markdownLayout(answer);
    expect(markup).toEqual([]);
    expect(blocks).toEqual([{ kind: "paragraph", start: 0, end: answer.length }]);
  });
});

describe("dropInWords", () => {
  it("says a drop one way: what failed when explain said, else its reason in words", () => {
    expect(dropInWords({ claim: "c", reason: "entity_not_found", detail: { entity: "Berlin" } })).toBe(
      '"Berlin" is in no source and not in the question',
    );
    expect(dropInWords({ claim: "c", reason: "no_support" })).toBe("no span of the sources supports it");
  });
});

describe("triedInWords", () => {
  it("names the quote tried, the source named and the near match", () => {
    expect(
      triedInWords({
        claim: "c",
        reason: "quote_not_found",
        quote: "WITHIN 30 days",
        source: "policy",
        near: { quote: "within 30 days", range: [21, 35] },
      }),
    ).toBe('tried "WITHIN 30 days" in policy · near match "within 30 days" at 21–35');
    expect(triedInWords({ claim: "c", reason: "unknown_source", source: "faq" })).toBe("named faq");
    expect(triedInWords({ claim: "c", reason: "quote_not_found" })).toBe("");
  });
});
