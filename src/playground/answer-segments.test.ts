import { describe, expect, it } from "vitest";
import { type AnswerSegment, answerSegments } from "./answer-segments.js";
import type { Citation } from "./wire-types.js";

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
