import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { referenceLenientQuote, referenceStrictQuote } from "../matchers.reference.js";
import type { PreparedSource } from "../prepared-source.js";
import type { MatchMode, Range } from "../types.js";
import { expectQuotes, findQuote, trimQuote } from "./find-quote.js";
import { findLenientQuote } from "./lenient-match.js";
import { findQuotesAtOnce } from "./quote-batch.js";
import { findStrictQuoteInSource } from "./strict-match.js";

const sourceOf = (text: string): PreparedSource => ({ id: "s", text });

// Pieces that meet every rule of both matchers: word runs, case, digits and their separators, whitespace
// runs of every kind, punctuation, combining marks (alone too), an astral letter and an astral symbol, and
// each half of a surrogate pair alone.
const PIECES = [
  "a",
  "b",
  "ab",
  "A",
  "1",
  "1.5",
  " ",
  "  ",
  "\n",
  "\t\u00a0",
  "\u3000",
  ",",
  ".",
  "'",
  "-",
  "é",
  "e\u0301",
  "\u0301",
  "\u{1d465}",
  "\u{1f600}",
  "\ud835",
  "\udc65",
  "中",
];
const piece = fc.constantFrom(...PIECES);
const textOf = (maxLength: number) => fc.array(piece, { maxLength }).map((parts) => parts.join(""));
const periodic = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 30 }))
  .map(([unit, times]) => unit.join("").repeat(times));
const anyText = fc.oneof(textOf(50), periodic);

// Quotes: pieces of the text (cut anywhere, so halves of pairs and runs), near misses, and any text.
const quotesFor = (text: string) =>
  fc.array(
    fc.oneof(
      fc
        .tuple(fc.nat(text.length), fc.nat(text.length), fc.option(piece))
        .map(([a, b, tail]) => text.slice(Math.min(a, b), Math.max(a, b)) + (tail ?? "")),
      textOf(6),
    ),
    { minLength: 1, maxLength: 12 },
  );
const textAndQuotes = anyText.chain((text) => quotesFor(text).map((quotes) => [text, quotes] as const));

// The end-only family: `'a '×n + 'b'`, quotes `'a '×k + 'b'`, found only at the end; and its near misses.
const endOnly = fc
  .tuple(
    fc.integer({ min: 1, max: 60 }),
    fc.array(fc.integer({ min: 0, max: 70 }), { maxLength: 12 }),
    fc.boolean(),
  )
  .map(
    ([times, counts, ending]) =>
      [`${"a ".repeat(times)}${ending ? "b" : ""}`, counts.map((count) => `${"a ".repeat(count)}b`)] as const,
  );

function oneAtATime(text: string, quotes: readonly string[], mode: MatchMode): (Range | null)[] {
  return quotes.map((quote) =>
    mode === "lenient"
      ? findLenientQuote(sourceOf(text), quote)
      : findStrictQuoteInSource(sourceOf(text), quote),
  );
}

describe("findQuotesAtOnce: the same answers as one quote at a time", () => {
  it.each<MatchMode>(["strict", "lenient"])("%s, random, periodic and end-only inputs", (mode) => {
    const reference = mode === "lenient" ? referenceLenientQuote : referenceStrictQuote;
    fc.assert(
      fc.property(fc.oneof(textAndQuotes, endOnly), ([text, rawQuotes]) => {
        const quotes = rawQuotes.map(trimQuote).filter((quote) => quote !== "");
        const atOnce = findQuotesAtOnce(sourceOf(text), quotes, mode);
        expect(atOnce).toEqual(oneAtATime(text, quotes, mode));
        expect(atOnce).toEqual(quotes.map((quote) => reference(text, quote)));
      }),
      { numRuns: 3000 },
    );
  });

  it.each<{ name: string; text: string; quotes: string[]; mode: MatchMode; expected: (Range | null)[] }>([
    {
      name: "strict: a whitespace run meets any run; word edges are kept",
      text: "xa  b a\nb, a b",
      quotes: ["a b", "a b,", "b, a", "xa b"],
      mode: "strict",
      expected: [
        [6, 9],
        [6, 10],
        [8, 12],
        [0, 5],
      ],
    },
    {
      name: "strict: half of a surrogate pair never matches; a lone one does",
      text: "\u{1d465} \ud835 x",
      quotes: ["\ud835", "\udc65", "\u{1d465}"],
      mode: "strict",
      expected: [[3, 4], null, [0, 2]],
    },
    {
      name: "strict: a combining mark is inside its word",
      text: "cafe\u0301 cafe",
      quotes: ["cafe", "\u0301"],
      mode: "strict",
      expected: [[6, 10], null],
    },
    {
      name: "lenient: punctuation is taken where the quote had some",
      text: "He said: (Yes!) twice",
      quotes: ["said yes", "(yes!)", "said: (yes"],
      mode: "lenient",
      expected: [
        [3, 13],
        [9, 15],
        [3, 13],
      ],
    },
  ])("$name", ({ text, quotes, mode, expected }) => {
    expect(findQuotesAtOnce(sourceOf(text), quotes, mode)).toEqual(expected);
    expect(oneAtATime(text, quotes, mode)).toEqual(expected);
  });
});

// A quote cut from the source inside an emoji is a slice of it: Node 24's optimized codePointAt read its
// last high surrogate as the whole emoji, so once warm the batch found what a lone search does not.
it("a quote cut inside an emoji is not found, however often it is searched", () => {
  const found = new Set<string>();
  for (let search = 0; search < 20_000; search += 1) {
    const text = "\u{1f600}  ".repeat(19 + (search % 5));
    const quote = text.slice(0, 13);
    found.add(JSON.stringify(findQuotesAtOnce(sourceOf(text), [quote], "strict")));
  }
  expect([...found]).toEqual(["[null]"]);
});

describe("findQuote with announced quotes", () => {
  // Enough distinct near misses against a small source that one-at-a-time searches pass the threshold and
  // the rest are found at once.
  const manyQuotes = anyText.chain((text) =>
    fc
      .array(quotesFor(text), { minLength: 4, maxLength: 8 })
      .map((lists) => [text, [...lists.flat(), ...lists.flat().map((quote) => `${quote}a`)]] as const),
  );

  it.each<MatchMode>(["strict", "lenient"])("%s: every answer is the one a lone search gives", (mode) => {
    fc.assert(
      fc.property(fc.oneof(manyQuotes, endOnly), ([text, quotes]) => {
        const announced = sourceOf(text);
        expectQuotes(announced, quotes, mode);
        const found = quotes.map((quote) => findQuote(announced, quote, mode));
        expect(found).toEqual(quotes.map((quote) => findQuote(sourceOf(text), quote, mode)));
      }),
      { numRuns: 1000 },
    );
  });
});
