import { describe, expect, it } from "vitest";
import type { Range } from "../types.js";
import { findLenientQuote } from "./lenient-match.js";

describe("findLenientQuote", () => {
  it.each<{ name: string; text: string; quote: string; expected: Range | null }>([
    { name: "an exact quote", text: "within 30 days of purchase", quote: "30 days", expected: [7, 14] },
    { name: "the empty quote never matches", text: "30 days", quote: "", expected: null },
    { name: "a quote of punctuation only never matches", text: "wait... what", quote: "...", expected: null },
    { name: "an absent word", text: "within 30 days", quote: "60 days", expected: null },
    // Case and diacritics
    { name: "case is ignored", text: "Within 30 Days", quote: "WITHIN 30 days", expected: [0, 14] },
    {
      name: "precomposed diacritics are ignored",
      text: "The Café opened",
      quote: "cafe OPENED",
      expected: [4, 15],
    },
    {
      name: "a decomposed diacritic stays inside the range",
      text: "cafe\u0301 au lait",
      quote: "CAFÉ au",
      expected: [0, 8],
    },
    { name: "sharp s matches ss", text: "Die Straße", quote: "STRASSE", expected: [4, 10] },
    { name: "Greek case and accents", text: "η οδός", quote: "ΟΔΟΣ", expected: [2, 6] },
    {
      name: "a ligature in the source",
      text: "an e\ufb03cient way",
      quote: "efficient way",
      expected: [3, 14],
    },
    {
      name: "a dotted capital I earlier does not shift the range",
      text: "İstanbul, Türkiye",
      quote: "istanbul turkiye",
      expected: [0, 17],
    },
    { name: "an astral letter", text: "x \u{1d400}B y", quote: "ab", expected: [2, 5] },
    // Punctuation and whitespace only separate
    {
      name: "punctuation between words is ignored",
      text: "Revenue was, in total, $5 million.",
      quote: "revenue was in total 5 million",
      expected: [0, 33],
    },
    { name: "a hyphen matches a space", text: "a 30-day window", quote: "30 day window", expected: [2, 15] },
    {
      name: "a typographic apostrophe matches a straight one",
      text: "don\u2019t stop",
      quote: "don't stop",
      expected: [0, 10],
    },
    { name: "a line break matches a space", text: "30\ndays", quote: "30 days", expected: [0, 7] },
    {
      name: "a space matches no space only between tokens",
      text: "30-days",
      quote: "30days",
      expected: null,
    },
    // Numbers
    { name: "1.5 never equals 15", text: "a 1.5 b", quote: "15", expected: null },
    { name: "15 never equals 1.5", text: "a 15 b", quote: "1.5", expected: null },
    { name: "15 is found after 1.5", text: "a 1.5 b 15", quote: "15", expected: [8, 10] },
    {
      name: "1,452.4 is one token",
      text: "was $1,452.4 million",
      quote: "1,452.4 million",
      expected: [5, 20],
    },
    {
      name: "a thousands separator cannot be dropped",
      text: "was $1,452.4 million",
      quote: "1452.4 million",
      expected: null,
    },
    {
      name: "part of a number is not a whole token",
      text: "was $1,452.4 million",
      quote: "452.4 million",
      expected: null,
    },
    {
      name: "a sentence-ending period is not part of a number",
      text: "It rose 15. Then",
      quote: "rose 15 then",
      expected: [3, 16],
    },
    // Whole tokens
    { name: "a word inside a word", text: "four", quote: "our", expected: null },
    { name: "a number inside a number", text: "130 days", quote: "30 days", expected: null },
    // Range extension
    {
      name: "no punctuation at the quote's ends: the range is the tokens",
      text: "tackles (118) forced",
      quote: "118",
      expected: [9, 12],
    },
    {
      name: "punctuation at both ends: the range takes the attached punctuation",
      text: "tackles (118) forced",
      quote: "(118)",
      expected: [8, 13],
    },
    { name: "punctuation at the end only", text: "tackles (118) forced", quote: "118)", expected: [9, 13] },
    { name: "punctuation at the start only", text: "tackles (118) forced", quote: "(118", expected: [8, 12] },
    {
      name: "the source's own punctuation is taken, not the quote's",
      text: "Revenue was $1,452.4 million.",
      quote: "\u20ac1,452.4 million!",
      expected: [12, 29],
    },
    {
      name: "extension takes every attached character",
      text: 'he said "stop!" then',
      quote: 'stop!"',
      expected: [9, 15],
    },
    { name: "extension stops at whitespace", text: "note: hello", quote: ":hello", expected: [6, 11] },
    { name: "extension never enters the previous token", text: "a.b", quote: ".b", expected: [1, 3] },
    { name: "extension never enters the next token", text: "a.b", quote: "a.", expected: [0, 2] },
    {
      name: "extension over nothing attached leaves the range",
      text: "say hi now",
      quote: "hi!",
      expected: [4, 6],
    },
    {
      name: "extension over an astral symbol",
      text: "go \u{1f600}x\u{1f600} now",
      quote: "-x-",
      expected: [3, 8],
    },
    // First match in source order
    {
      name: "the first of two occurrences wins",
      text: "The cat. the CAT",
      quote: "the cat",
      expected: [0, 7],
    },
    {
      name: "a rarer later token does not skip the first match",
      text: "a x a b a b",
      quote: "a b",
      expected: [4, 7],
    },
    {
      name: "a match cut short by the end of the text is not a match",
      text: "a b a",
      quote: "a c",
      expected: null,
    },
  ])("$name", ({ text, quote, expected }) => {
    expect(findLenientQuote({ id: "s", text }, quote)).toEqual(expected);
  });
});
