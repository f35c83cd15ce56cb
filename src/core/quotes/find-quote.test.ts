import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PreparedSource } from "../prepared-source.js";
import { tokenizeLenient } from "../text/tokens.js";
import type { MatchMode, Range } from "../types.js";
import {
  BATCH_QUOTE_CHARS,
  expectQuotes,
  findQuote,
  searchesAtOnce,
  trimQuote,
  unsearchedQuoteChars,
} from "./find-quote.js";

const sourceOf = (text: string): PreparedSource => ({ id: "s", text });
const keysOf = (text: string): string[] => tokenizeLenient(text).map((token) => token.key);
const segmentsOf = (text: string): string[] => text.trim().split(/\s+/u);

describe("findQuote", () => {
  const text = 'Refunds are accepted within 30 days of purchase. Shipping is "free" over $50.';
  it.each<{ name: string; quote: string; mode: MatchMode; expected: Range | null }>([
    { name: "strict finds an exact quote", quote: "within 30 days", mode: "strict", expected: [21, 35] },
    { name: "lenient finds an exact quote", quote: "within 30 days", mode: "lenient", expected: [21, 35] },
    { name: "strict rejects another case", quote: "Within 30 Days", mode: "strict", expected: null },
    { name: "lenient accepts another case", quote: "Within 30 Days", mode: "lenient", expected: [21, 35] },
    {
      name: "strict trims the model's quotation marks",
      quote: " \u201cwithin 30 days\u201d ",
      mode: "strict",
      expected: [21, 35],
    },
    {
      name: "lenient trims the model's quotation marks",
      quote: "'within 30 days'",
      mode: "lenient",
      expected: [21, 35],
    },
    {
      name: "lenient extends over the source's punctuation where the quote had some",
      quote: "\u00abof purchase!\u00bb",
      mode: "lenient",
      expected: [36, 48],
    },
    {
      name: "strict keeps quotation marks inside the quote",
      quote: '"free" over',
      mode: "strict",
      expected: [61, 72],
    },
    { name: "strict finds what trimming left", quote: '"free"', mode: "strict", expected: [62, 66] },
    { name: "an empty quote never matches in strict", quote: "", mode: "strict", expected: null },
    { name: "an empty quote never matches in lenient", quote: "", mode: "lenient", expected: null },
    { name: "whitespace only never matches", quote: " \n ", mode: "strict", expected: null },
    { name: "empty quotation marks never match", quote: "\u201c \u201d", mode: "lenient", expected: null },
    { name: "strict is boundary-exact", quote: "0 days", mode: "strict", expected: null },
    { name: "lenient matches whole tokens", quote: "0 days", mode: "lenient", expected: null },
  ])("$name", ({ quote, mode, expected }) => {
    expect(findQuote(sourceOf(text), quote, mode)).toEqual(expected);
  });
});

// Random texts over a small alphabet that exercises every rule: case, a diacritic, digits, the digit
// separators, whitespace runs and punctuation. Every character folds to one character, which keeps the
// naive matchers below naive.
const alphabet = [..."aabbAB01 ., -!'\n\"", "é", "É", "\u201c", "\u201d"];
const smallText = (maxLength: number) =>
  fc.array(fc.constantFrom(...alphabet), { maxLength }).map((chars) => chars.join(""));
const modes = fc.constantFrom<MatchMode>("strict", "lenient");

const isWord = (char: string | undefined): boolean => char !== undefined && /[\p{L}\p{N}\p{M}]/u.test(char);
const fold = (char: string): string => char.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");

/** Strict by definition: the first slice, tried at every start and end, that the rule accepts. */
function naiveStrict(text: string, rawQuote: string): Range | null {
  const quote = trimQuote(rawQuote);
  if (quote === "") return null;
  const wanted = segmentsOf(quote).join(" ");
  for (let start = 0; start < text.length; start++) {
    for (let end = start + 1; end <= text.length; end++) {
      const slice = text.slice(start, end);
      if (slice.trim() !== slice || segmentsOf(slice).join(" ") !== wanted) continue;
      if (isWord(quote[0]) && isWord(text[start - 1])) continue;
      if (isWord(quote[quote.length - 1]) && isWord(text[end])) continue;
      return [start, end];
    }
  }
  return null;
}

/** Which characters of a text belong to a token, read straight off the rule, one character at a time. */
function inTokenFlags(text: string): boolean[] {
  const folded = Array.from(text, fold);
  const isDigit = (char: string | undefined) => char !== undefined && /\p{N}/u.test(char);
  return folded.map(
    (char, index) =>
      /[\p{L}\p{N}]/u.test(char) ||
      ((char === "." || char === ",") && isDigit(folded[index - 1]) && isDigit(folded[index + 1])),
  );
}

/** Tokens as maximal runs of in-token characters, folded. */
function naiveKeys(text: string): string[] {
  const flags = inTokenFlags(text);
  const keys: string[] = [];
  let current = "";
  Array.from(text).forEach((char, index) => {
    if (flags[index]) current += fold(char);
    else if (current !== "") {
      keys.push(current);
      current = "";
    }
  });
  if (current !== "") keys.push(current);
  return keys;
}

/** Lenient by definition: the first whole-token slice whose tokens are the quote's, then extended. */
function naiveLenient(text: string, rawQuote: string): Range | null {
  const quote = trimQuote(rawQuote);
  const wanted = naiveKeys(quote);
  if (wanted.length === 0) return null;
  const flags = inTokenFlags(text);
  const quoteFlags = inTokenFlags(quote);
  for (let start = 0; start < text.length; start++) {
    if (!flags[start] || flags[start - 1]) continue;
    for (let end = start + 1; end <= text.length; end++) {
      if (!flags[end - 1] || flags[end]) continue;
      if (naiveKeys(text.slice(start, end)).join("|") !== wanted.join("|")) continue;
      let from = start;
      let to = end;
      const attached = (index: number) =>
        index >= 0 && index < text.length && !flags[index] && !/\s/u.test(text[index] ?? "");
      if (!quoteFlags[0]) while (attached(from - 1)) from--;
      if (!quoteFlags[quote.length - 1]) while (attached(to)) to++;
      return [from, to];
    }
  }
  return null;
}

// A quote is either random or cut from the text, so both misses and hits are common.
const quoteCases = smallText(30).chain((text) =>
  fc.tuple(
    fc.constant(text),
    fc.oneof(
      smallText(6),
      fc.tuple(fc.nat(text.length), fc.nat(8), fc.boolean()).map(([start, length, upper]) => {
        const cut = text.slice(start, start + length);
        return upper ? cut.toUpperCase() : cut;
      }),
    ),
  ),
);

describe("findQuote against naive matchers", () => {
  it("strict agrees with a brute-force scan over every start and end", () => {
    fc.assert(
      fc.property(quoteCases, ([text, quote]) => {
        expect(findQuote(sourceOf(text), quote, "strict")).toEqual(naiveStrict(text, quote));
      }),
      { numRuns: 3000 },
    );
  });

  it("lenient agrees with a brute-force scan over every start and end", () => {
    fc.assert(
      fc.property(quoteCases, ([text, quote]) => {
        expect(findQuote(sourceOf(text), quote, "lenient")).toEqual(naiveLenient(text, quote));
      }),
      { numRuns: 3000 },
    );
  });
});

// Sources built from words, so a quote can be cut at word boundaries and perturbed the way models do.
const word = fc.oneof(
  fc.stringMatching(/^[a-zé]{1,6}$/),
  fc.stringMatching(/^[0-9]{1,4}$/),
  fc.stringMatching(/^[1-9][0-9]{0,2},[0-9]{3}\.[0-9]$/),
  fc.stringMatching(/^[0-9]\.[0-9]{1,2}$/),
);
const separator = fc.constantFrom(" ", "  ", "\n", ", ", ". ", " - ", "; ", ' "', '" ', " (", ") ");
const wordedSource = fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 40 }).chain((pairs) => {
  let text = "";
  const spans: Range[] = [];
  for (const [part, gap] of pairs) {
    spans.push([text.length, text.length + part.length]);
    text += part + gap;
  }
  return fc.tuple(fc.nat(pairs.length - 1), fc.nat(pairs.length - 1)).map(([a, b]) => ({
    text,
    spans,
    words: pairs.map(([part]) => part),
    first: Math.min(a, b),
    last: Math.max(a, b),
  }));
});

describe("findQuote properties", () => {
  it("returns ranges that slice to the matched text", () => {
    fc.assert(
      fc.property(quoteCases, modes, ([text, quote], mode) => {
        const range = findQuote(sourceOf(text), quote, mode);
        if (range === null) return;
        const [start, end] = range;
        expect(0 <= start && start < end && end <= text.length).toBe(true);
        const slice = text.slice(start, end);
        if (mode === "strict") expect(segmentsOf(slice)).toEqual(segmentsOf(trimQuote(quote)));
        else expect(keysOf(slice)).toEqual(keysOf(quote));
      }),
      { numRuns: 2000 },
    );
  });

  it("finds a substring cut at word boundaries in both modes, there or at an earlier identical place", () => {
    fc.assert(
      fc.property(wordedSource, ({ text, spans, first, last }) => {
        const start = spans[first]?.[0] ?? 0;
        const quote = text.slice(start, spans[last]?.[1]);
        for (const mode of ["strict", "lenient"] as const) {
          const range = findQuote(sourceOf(text), quote, mode);
          expect(range).not.toBeNull();
          const [from, to] = range ?? [0, 0];
          expect(from).toBeLessThanOrEqual(start);
          if (mode === "strict") expect(segmentsOf(text.slice(from, to))).toEqual(segmentsOf(quote));
          else expect(keysOf(text.slice(from, to))).toEqual(keysOf(quote));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("finds a re-cased, re-punctuated quote in lenient, and not in strict when letters changed", () => {
    const perturbation = fc.record({
      casing: fc.constantFrom("upper", "title", "alternate"),
      gaps: fc.array(fc.constantFrom(" ", "  ", "\n", " \u2014 ", ", ", "; ", " / "), {
        minLength: 40,
        maxLength: 40,
      }),
      open: fc.constantFrom("", '"', "\u201c", "(", "\u00ab"),
      close: fc.constantFrom("", ".", "!", '"', "\u201d", ")", ".)"),
    });
    const recase = (text: string, casing: string, seed: number) =>
      casing === "upper"
        ? text.toUpperCase()
        : casing === "title"
          ? text.charAt(0).toUpperCase() + text.slice(1)
          : Array.from(text, (char, index) => ((index + seed) % 2 === 0 ? char.toUpperCase() : char)).join(
              "",
            );
    fc.assert(
      fc.property(
        wordedSource,
        perturbation,
        ({ text, spans, words, first, last }, { casing, gaps, open, close }) => {
          const start = spans[first]?.[0] ?? 0;
          const original = text.slice(start, spans[last]?.[1]);
          const parts = words.slice(first, last + 1).map((part, index) => recase(part, casing, index));
          const quote =
            open +
            parts.map((part, index) => (index === 0 ? part : (gaps[index] ?? " ") + part)).join("") +
            close;
          const lenient = findQuote(sourceOf(text), quote, "lenient");
          expect(lenient).not.toBeNull();
          const [from, to] = lenient ?? [0, 0];
          expect(from).toBeLessThanOrEqual(start);
          expect(keysOf(text.slice(from, to))).toEqual(keysOf(original));
          // The source holds no capital letters, so a quote with one cannot match strictly.
          if (/\p{Lu}/u.test(quote)) expect(findQuote(sourceOf(text), quote, "strict")).toBeNull();
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("gives deep-equal output for the same input, on a fresh or a reused source", () => {
    fc.assert(
      fc.property(smallText(30), fc.array(smallText(6), { maxLength: 5 }), modes, (text, quotes, mode) => {
        const reused = sourceOf(text);
        const first = quotes.map((quote) => findQuote(reused, quote, mode));
        const again = quotes.map((quote) => findQuote(reused, quote, mode));
        const fresh = quotes.map((quote) => findQuote(sourceOf(text), quote, mode));
        expect(again).toEqual(first);
        expect(fresh).toEqual(first);
      }),
    );
  });
});

describe("findQuote on planted spans", () => {
  // A phrase planted at a known place in a large generated source: found there, in both modes.
  const filler = (count: number) =>
    Array.from({ length: count }, (_, index) => `Line ${index} holds figure ${index * 7}.`).join(" ");
  it.each<{ name: string; phrase: string; quote: string; mode: MatchMode }>([
    {
      name: "strict, exact",
      phrase: "net revenue rose to $1,452.4 million",
      quote: "net revenue rose to $1,452.4 million",
      mode: "strict",
    },
    {
      name: "strict, re-flowed",
      phrase: "net revenue rose\nto $1,452.4 million",
      quote: "net revenue rose to $1,452.4 million",
      mode: "strict",
    },
    {
      name: "lenient, re-cased",
      phrase: "Net Revenue rose to $1,452.4 million",
      quote: "net revenue rose to 1,452.4 million",
      mode: "lenient",
    },
  ])("$name", ({ phrase, quote, mode }) => {
    const before = filler(2000);
    const text = `${before} ${phrase} ${filler(500)}`;
    const start = before.length + 1;
    const range = findQuote(sourceOf(text), quote, mode);
    expect(range).toEqual([start, start + phrase.length]);
    expect(text.slice(start, start + phrase.length)).toEqual(phrase);
  });
});

describe("findQuote on many announced quotes", () => {
  it("finds them at once in passes of at most BATCH_QUOTE_CHARS (64,000) characters of quotes, or n", () => {
    const words = ["the", "quarterly", "review", "noted", "steady", "progress"];
    const source = sourceOf(Array.from({ length: 200 }, (_, at) => words[at % words.length]).join(" "));
    // 400 distinct near misses of 500 characters (200,000 in all): words the source holds, and one it lacks.
    const quotes = Array.from({ length: 400 }, (_, at) => {
      const head = Array.from({ length: 50 }, (_, word) => words[(at + word) % words.length]).join(" ");
      return `${head} missing${at}`.padEnd(500, ".");
    });
    expectQuotes(source, quotes, "strict");
    let next = 0;
    while (!searchesAtOnce(source, "strict")) {
      expect(findQuote(source, quotes[next] as string, "strict")).toBeNull();
      next += 1;
    }
    const unsearched = () => quotes.filter((quote) => unsearchedQuoteChars(source, quote, "strict") > 0);
    const before = unsearched().length;
    expect(findQuote(source, quotes[next] as string, "strict")).toBeNull();
    // The pass took quotes until it held BATCH_QUOTE_CHARS characters (the source is shorter): 128 of them.
    expect((before - unsearched().length) * 500).toBe(Math.ceil(BATCH_QUOTE_CHARS / 500) * 500);
    expect(BATCH_QUOTE_CHARS).toBe(64_000);
  });
});

describe("trimQuote", () => {
  it.each<{ name: string; quote: string; expected: string }>([
    { name: "plain text is unchanged", quote: "30 days", expected: "30 days" },
    { name: "surrounding whitespace goes", quote: " \n\t30 days \r\n", expected: "30 days" },
    { name: "straight double quotes go", quote: '"30 days"', expected: "30 days" },
    { name: "curly double quotes go", quote: "\u201c30 days\u201d", expected: "30 days" },
    { name: "straight single quotes go", quote: "'30 days'", expected: "30 days" },
    { name: "curly single quotes go", quote: "\u201830 days\u2019", expected: "30 days" },
    { name: "guillemets go", quote: "\u00ab30 days\u00bb", expected: "30 days" },
    { name: "whitespace inside the marks goes too", quote: ' " 30 days " ', expected: "30 days" },
    { name: "only one pair goes", quote: "\"'30 days'\"", expected: "'30 days'" },
    { name: "mismatched marks stay", quote: '\u201c30 days"', expected: '\u201c30 days"' },
    { name: "a reversed pair stays", quote: "\u201d30 days\u201c", expected: "\u201d30 days\u201c" },
    { name: "a closing apostrophe alone stays", quote: "the Panthers'", expected: "the Panthers'" },
    { name: "an opening mark alone stays", quote: '"30 days', expected: '"30 days' },
    { name: "a lone mark stays", quote: '"', expected: '"' },
    { name: "an empty pair leaves nothing", quote: '""', expected: "" },
    { name: "a pair around whitespace leaves nothing", quote: "\u201c  \u201d", expected: "" },
    { name: "whitespace alone leaves nothing", quote: " \n ", expected: "" },
    { name: "the empty quote stays empty", quote: "", expected: "" },
    { name: "inner quotation marks stay", quote: 'He said "stop" twice', expected: 'He said "stop" twice' },
  ])("$name", ({ quote, expected }) => {
    expect(trimQuote(quote)).toEqual(expected);
  });

  it("returns a trimmed piece of the quote", () => {
    fc.assert(
      fc.property(fc.string(), (quote) => {
        const trimmed = trimQuote(quote);
        expect(trimmed.trim()).toEqual(trimmed);
        expect(quote.includes(trimmed)).toBe(true);
      }),
    );
  });

  it("undoes one pair of quotation marks a model added", () => {
    const pairs = ['""', "\u201c\u201d", "''", "\u2018\u2019", "\u00ab\u00bb"];
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...pairs), (text, pair) => {
        const inner = trimQuote(text);
        expect(trimQuote(` ${pair[0]}${inner}${pair[1]}\n`)).toEqual(inner);
      }),
    );
  });
});
