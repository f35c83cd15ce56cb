import { describe, expect, it } from "vitest";
import type { Range } from "../types.js";
import { findStrictQuote } from "./strict-match.js";

describe("findStrictQuote", () => {
  it.each<{ name: string; text: string; quote: string; expected: Range | null }>([
    {
      name: "an exact quote in the middle",
      text: "within 30 days of purchase",
      quote: "30 days",
      expected: [7, 14],
    },
    { name: "an exact quote at the start", text: "30 days of purchase", quote: "30 days", expected: [0, 7] },
    { name: "an exact quote at the end", text: "within 30 days", quote: "30 days", expected: [7, 14] },
    { name: "the whole text", text: "30 days", quote: "30 days", expected: [0, 7] },
    { name: "the empty quote never matches", text: "30 days", quote: "", expected: null },
    { name: "an absent quote", text: "within 30 days", quote: "60 days", expected: null },
    // Whitespace runs
    {
      name: "a line break in the source matches a space",
      text: "within 30\ndays",
      quote: "30 days",
      expected: [7, 14],
    },
    {
      name: "a long run in the source matches one space",
      text: "30 \n\t days",
      quote: "30 days",
      expected: [0, 10],
    },
    {
      name: "a long run in the quote matches one space",
      text: "30 days",
      quote: "30 \n  days",
      expected: [0, 7],
    },
    { name: "a no-break space is whitespace", text: "30\u00a0days", quote: "30 days", expected: [0, 7] },
    {
      name: "whitespace in the quote needs whitespace in the source",
      text: "30days",
      quote: "30 days",
      expected: null,
    },
    {
      name: "whitespace in the source needs whitespace in the quote",
      text: "30 days",
      quote: "30days",
      expected: null,
    },
    // Exactness
    { name: "case must be identical", text: "Within 30 Days", quote: "30 days", expected: null },
    { name: "punctuation must be identical", text: "30 days, then", quote: "30 days. then", expected: null },
    { name: "digits must be identical", text: "1,452.4", quote: "1452.4", expected: null },
    {
      name: "inner punctuation that is identical matches",
      text: "in U.S. dollars.",
      quote: "U.S. dollars",
      expected: [3, 15],
    },
    { name: "a quote ending in punctuation", text: "paid $29.", quote: "paid $29.", expected: [0, 9] },
    // Boundaries
    { name: "a number inside a larger number", text: "within 130 days", quote: "30 days", expected: null },
    { name: "a word inside a word", text: "four", quote: "our", expected: null },
    { name: "a word at the start of a longer word", text: "ours", quote: "our", expected: null },
    {
      name: "the later standalone occurrence is found",
      text: "four of our",
      quote: "our",
      expected: [8, 11],
    },
    { name: "a number followed by more digits", text: "$299", quote: "$29", expected: null },
    {
      name: "a quote starting with a symbol needs no boundary before it",
      text: "US$29 each",
      quote: "$29",
      expected: [2, 5],
    },
    {
      name: "a quote starting with a hyphen needs no boundary before it",
      text: "a 30-day window",
      quote: "-day",
      expected: [4, 8],
    },
    {
      name: "a quote ending with punctuation needs no boundary after it",
      text: "a,b",
      quote: "a,",
      expected: [0, 2],
    },
    { name: "punctuation after the match is a boundary", text: "(our)", quote: "our", expected: [1, 4] },
    { name: "an underscore is a boundary", text: "snake_case", quote: "case", expected: [6, 10] },
    { name: "a Cyrillic word inside a longer word", text: "домой", quote: "дом", expected: null },
    { name: "a Cyrillic word on its own", text: "мой дом.", quote: "дом", expected: [4, 7] },
    { name: "Greek is boundary-exact", text: "ο λόγος", quote: "λόγο", expected: null },
    { name: "a CJK run has no word boundary inside", text: "東京都に", quote: "東京", expected: null },
    { name: "CJK text bounded by punctuation", text: "東京、大阪。", quote: "大阪", expected: [3, 5] },
    { name: "an Arabic-Indic digit inside a number", text: "١٣", quote: "٣", expected: null },
    { name: "an accented letter before the match", text: "éour", quote: "our", expected: null },
    // Combining marks belong to the letter before them
    { name: "a combining mark after the match", text: "cafe\u0301 au lait", quote: "cafe", expected: null },
    {
      name: "a decomposed quote with its mark",
      text: "cafe\u0301 au lait",
      quote: "cafe\u0301",
      expected: [0, 5],
    },
    { name: "a combining mark before the match", text: "e\u0301bc", quote: "bc", expected: null },
    {
      name: "a decomposed quote does not match the precomposed source",
      text: "café",
      quote: "cafe\u0301",
      expected: null,
    },
    // Surrogate pairs
    { name: "an astral letter before the match", text: "\u{1d400}bc", quote: "bc", expected: null },
    { name: "an astral letter after the match", text: "ab\u{1d400}", quote: "ab", expected: null },
    { name: "an emoji before the match is a boundary", text: "\u{1f600}bc", quote: "bc", expected: [2, 4] },
    { name: "an emoji after the match is a boundary", text: "ab\u{1f600}", quote: "ab", expected: [0, 2] },
    { name: "an astral letter quoted whole", text: "x \u{1d400} y", quote: "\u{1d400}", expected: [2, 4] },
    { name: "a lone high surrogate never splits a pair", text: "\u{1f600}", quote: "\ud83d", expected: null },
    { name: "a lone low surrogate never splits a pair", text: "\u{1f600}", quote: "\ude00", expected: null },
    // First match in source order
    {
      name: "the first of two occurrences wins",
      text: "30 days or 30 days",
      quote: "30 days",
      expected: [0, 7],
    },
    {
      name: "a first occurrence failing its boundary is skipped",
      text: "130 days, 30 days",
      quote: "30 days",
      expected: [10, 17],
    },
    {
      name: "a first occurrence failing after its first segment is skipped",
      text: "30 weeks, 30 days",
      quote: "30 days",
      expected: [10, 17],
    },
    {
      name: "overlapping candidates are each tried",
      text: "a a a b",
      quote: "a a b",
      expected: [2, 7],
    },
  ])("$name", ({ text, quote, expected }) => {
    expect(findStrictQuote(text, quote)).toEqual(expected);
  });
});
