import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildLabelIndex } from "./binding/label-index.js";
import { findNamedLabels } from "./binding/named-labels.js";
import { bindClaimToTable } from "./binding/row-binding.js";
import { judgeClaims } from "./claims/index.js";
import {
  referenceBindClaimToTable,
  referenceLenientQuote,
  referenceNamedLabels,
  referenceStrictQuote,
} from "./matchers.reference.js";
import { findNumberSpans, findNumbers } from "./numbers/scan.js";
import { type PreparedSource, prepareSources } from "./prepared-source.js";
import { expectQuotes, findQuote, quoteSearchSteps, trimQuote } from "./quotes/find-quote.js";
import { findLenientQuote } from "./quotes/lenient-match.js";
import { findQuotesAtOnce } from "./quotes/quote-batch.js";
import { findStrictQuote, findStrictQuoteInSource } from "./quotes/strict-match.js";
import type { StepCounter } from "./step-counter.js";
import { foldLabelText } from "./tables/label-text.js";
import { parseTableLayouts } from "./tables/markdown-tables.js";
import type { MatchMode } from "./types.js";

const source = (text: string): PreparedSource => ({ id: "s", text });

// Few distinct pieces, so texts repeat, near-miss and overlap: the inputs that made the old engine slow.
const PIECES = [
  "a",
  "b",
  "a ",
  "b ",
  " ",
  "\n",
  "  ",
  "ab",
  "A",
  "1",
  "1.5",
  ",",
  "é",
  "e\u0301",
  "𝑥",
  "-",
  "'",
];
const piece = fc.constantFrom(...PIECES);
const textOf = (maxLength: number) => fc.array(piece, { maxLength }).map((parts) => parts.join(""));
const periodic = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 40 }))
  .map(([unit, times]) => unit.join("").repeat(times));
const anyText = fc.oneof(textOf(60), periodic);

// A quote: a piece of the text (so matches happen), possibly changed at its end (a near miss), or any text.
const textAndQuote = anyText.chain((text) =>
  fc.oneof(
    fc
      .tuple(fc.nat(text.length), fc.nat(text.length), fc.option(piece))
      .map(([a, b, tail]) => [text, text.slice(Math.min(a, b), Math.max(a, b)) + (tail ?? "")] as const),
    fc.tuple(fc.constant(text), anyText).map(([t, q]) => [t, q] as const),
  ),
);

describe("the linear matchers agree with the previous (reference) ones", () => {
  it("strict: same range or null, for random and periodic texts", () => {
    fc.assert(
      fc.property(textAndQuote, ([text, rawQuote]) => {
        const quote = trimQuote(rawQuote);
        const expected = quote === "" ? null : referenceStrictQuote(text, quote);
        expect(findQuote(source(text), rawQuote, "strict")).toEqual(expected);
        if (quote !== "") expect(findStrictQuote(text, quote)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it("lenient: same range or null, for random and periodic texts", () => {
    fc.assert(
      fc.property(textAndQuote, ([text, rawQuote]) => {
        const quote = trimQuote(rawQuote);
        const expected = quote === "" ? null : referenceLenientQuote(text, quote);
        expect(findQuote(source(text), rawQuote, "lenient")).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  const LABELS = ["x", "x x", "x (a)", "net x", "net", "1", "2019", "%", "$", "q3", "q3 x", "é", "total"];
  const label = fc.constantFrom(...LABELS);
  const tables = fc
    .array(
      fc.record({
        header: fc.array(label, { minLength: 1, maxLength: 4 }),
        rows: fc.array(label, { maxLength: 6 }),
      }),
      { minLength: 1, maxLength: 3 },
    )
    .map((list) =>
      list
        .map(({ header, rows }) => {
          const columns = ["L", ...header];
          const lines = [`| ${columns.join(" | ")} |`, `|${columns.map(() => "-").join("|")}|`];
          rows.forEach((row, index) => {
            lines.push(`| ${[row, ...header.map((_, column) => String(index * 10 + column))].join(" | ")} |`);
          });
          return lines.join("\n");
        })
        .join("\n\nText between.\n\n"),
    );
  const claimWords = fc.constantFrom(
    ...LABELS,
    "was",
    "12",
    "1.5",
    "3",
    "(",
    ")",
    ",",
    "  ",
    "$1",
    "12 %",
    "xx",
  );
  const claim = fc.array(claimWords, { maxLength: 16 }).map((words) => words.join(" "));

  it("row: same label occurrences and the same binding, for random tables and claims", () => {
    fc.assert(
      fc.property(tables, claim, (markdown, text) => {
        const index = buildLabelIndex(parseTableLayouts(markdown));
        const folded = foldLabelText(text);
        const expected = referenceNamedLabels(folded, index);
        const found = findNamedLabels(folded, index);
        expect(found.toArray()).toEqual(expected);
        const numbers = findNumbers(folded);
        const spans = findNumberSpans(folded);
        for (let start = 0; start < found.length; ) {
          let end = start + 1;
          while (end < found.length && found.table(end) === found.table(start)) end += 1;
          const run = found.slice(start, end);
          const binding = bindClaimToTable(spans, run);
          expect({ ...binding, valueNumbers: binding.valueNumbers.toArray() }).toEqual(
            referenceBindClaimToTable(numbers, run.toArray()),
          );
          start = end;
        }
      }),
      { numRuns: 2000 },
    );
  });

  // Long claims name many labels in many tables: the counting sorts rank many occurrences.
  const longClaim = fc.array(claimWords, { minLength: 20, maxLength: 120 }).map((words) => words.join(" "));

  it("row: same label occurrences for claims naming many labels in many tables", () => {
    fc.assert(
      fc.property(tables, longClaim, (markdown, text) => {
        const index = buildLabelIndex(parseTableLayouts(markdown));
        const folded = foldLabelText(text);
        expect(findNamedLabels(folded, index).toArray()).toEqual(referenceNamedLabels(folded, index));
      }),
      { numRuns: 500 },
    );
  });

  it("row: same label occurrences with many labels and code units beyond ASCII", () => {
    // Hundreds of labels fill the automaton's hash table of children; accented and astral labels take
    // the failure walk for code units no ASCII table holds.
    const names = Array.from({ length: 300 }, (_, index) => `é${index % 7 === 0 ? "𝑥" : ""} ${index}`);
    const markdown = `| L | é | 𝑥 y |\n|-|-|-|\n${names.map((name) => `| ${name} | 1 | 2 |`).join("\n")}`;
    const index = buildLabelIndex(parseTableLayouts(markdown));
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...names, "é", "𝑥 y", "ü", "7", "x"), { maxLength: 40 }),
        (words) => {
          const folded = foldLabelText(words.join(" "));
          expect(findNamedLabels(folded, index).toArray()).toEqual(referenceNamedLabels(folded, index));
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Steps of one call with a fresh counter.
function stepsOf(run: (counter: StepCounter) => unknown): number {
  const counter: StepCounter = { steps: 0 };
  run(counter);
  return counter.steps;
}

// Small constants: strict and lenient count about 3 steps per text unit and 2 per pattern unit; label
// mentions add the automaton, one step per occurrence and its ranking (three counting sorts).
const C = 8;
const C_LABELS = 16;
const SCALES = [1, 2, 4, 8, 16, 32, 64];

describe("the matchers' work is linear in their input (counted, not timed)", () => {
  const families: {
    name: string;
    bound: number;
    at: (scale: number) => { run: (counter: StepCounter) => unknown; size: number };
  }[] = [
    {
      name: "strict, `'a '×k + 'b'` against `'a '×2k`",
      bound: C,
      at: (scale) => {
        const text = "a ".repeat(1_000 * scale);
        const quote = `${"a ".repeat(500 * scale)}b`;
        return {
          run: (counter) => {
            findStrictQuote(text, quote, counter);
            findStrictQuoteInSource(source(text), quote, counter);
          },
          // Two searches: the direct one, and the one through a prepared source (direct scan, then KMP).
          size: 2 * (text.length + quote.length),
        };
      },
    },
    {
      name: "strict, near misses at every word start (`xa xa …` for `a xa xa`)",
      bound: C,
      at: (scale) => {
        const text = "xa ".repeat(1_000 * scale);
        const quote = `a ${"xa ".repeat(50 * scale)}xa`;
        return {
          run: (counter) => {
            findStrictQuote(text, quote, counter);
            findStrictQuoteInSource(source(text), quote, counter);
          },
          // Two searches: the direct one, and the one through a prepared source (direct scan, then KMP).
          size: 2 * (text.length + quote.length),
        };
      },
    },
    {
      name: "lenient, `'a b '×k + 'b a'` against `'a b '×2k`",
      bound: C,
      at: (scale) => {
        const text = "a b ".repeat(1_000 * scale);
        const quote = `${"a b ".repeat(400 * scale)}b a`;
        return {
          run: (counter) => findLenientQuote(source(text), quote, counter),
          size: text.length + quote.length,
        };
      },
    },
    {
      name: "row labels, `'x '×k + '1'` naming a row and a column label at every word",
      bound: C_LABELS,
      at: (scale) => {
        const markdown = `| L | x | x x |\n|-|-|-|\n${"| x | 1 | 2 |\n".repeat(10 * scale)}`;
        const folded = foldLabelText(`${"x ".repeat(2_000 * scale)}1`);
        const index = buildLabelIndex(parseTableLayouts(markdown));
        return {
          run: (counter) => findNamedLabels(folded, index, counter),
          size: markdown.length + folded.length,
        };
      },
    },
    {
      // k labels of 1…k words: k of them end at each word of the claim, so without an allowance the
      // occurrences alone number k·(claim words), and k grows as the source's square root.
      name: "row labels nested in one another (`a`, `a a`, …) against `'a '×k`, read with the claim's allowance",
      bound: C_LABELS,
      at: (scale) => {
        const rows = Array.from({ length: 10 * scale }, (_, index) => `| ${"a ".repeat(index + 1)}| 1 |`);
        const markdown = `| L | V |\n|-|-|\n${rows.join("\n")}`;
        const folded = foldLabelText(`${"a ".repeat(2_000 * scale)}7`);
        const index = buildLabelIndex(parseTableLayouts(markdown));
        return {
          run: (counter) => findNamedLabels(folded, index, counter, { left: folded.length }),
          size: markdown.length + folded.length,
        };
      },
    },
    {
      // Every table names `x`: without an allowance each mention is an occurrence in each table.
      name: "one label in every one of many tables, named at every word, read with the claim's allowance",
      bound: C_LABELS,
      at: (scale) => {
        const markdown = Array.from(
          { length: 20 * scale },
          (_, table) => `| x | ${table} |\n|-|-|\n| x | 1 |`,
        );
        const folded = foldLabelText(`${"x ".repeat(2_000 * scale)}7`);
        const index = buildLabelIndex(parseTableLayouts(markdown.join("\n\n")));
        return {
          run: (counter) => findNamedLabels(folded, index, counter, { left: folded.length }),
          size: markdown.join("\n\n").length + folded.length,
        };
      },
    },
  ];

  it.each(families)("$name: steps ≤ $bound·(n + m) as the input doubles from 1× to 64×", ({ at, bound }) => {
    for (const scale of SCALES) {
      const { run, size } = at(scale);
      expect(stepsOf(run)).toBeLessThanOrEqual(bound * size);
    }
  });

  // A request's many distinct quotes against one source: each alone costs O(n), so one at a time they cost
  // O(quotes × n); announced (as a claim check does), O(n + Σm) in all. Near misses whose every token the
  // source holds (so no "absent token" shortcut ends them), and quotes found only at the source's end.
  const manyDistinct = [
    {
      name: "near misses `'a b '×k + 'b a'` against `'a b '×n`",
      text: (scale: number) => "a b ".repeat(250 * scale),
      quote: (index: number) => `${"a b ".repeat(50 + index)}b a`,
      found: false,
    },
    {
      name: "`'a '×k + 'b'` found only at the end of `'a '×n + 'b'`",
      text: (scale: number) => `${"a ".repeat(500 * scale)}b`,
      quote: (index: number) => `${"a ".repeat(100 + index)}b`,
      found: true,
    },
  ];
  it.each(
    (["strict", "lenient"] as const).flatMap((mode) => manyDistinct.map((family) => ({ ...family, mode }))),
  )(
    "$mode, many distinct quotes, $name: steps ≤ 8·(n + Σm) as the input doubles from 1× to 64×",
    (family) => {
      for (const scale of SCALES) {
        const text = family.text(scale);
        const quotes = Array.from({ length: 20 * scale }, (_, index) => family.quote(index));
        const announced = source(text);
        expectQuotes(announced, quotes, family.mode);
        const found = quotes.filter((quote) => findQuote(announced, quote, family.mode) !== null);
        expect(found.length).toBe(family.found ? quotes.length : 0);
        const size = text.length + quotes.reduce((sum, quote) => sum + quote.length, 0);
        expect(quoteSearchSteps(announced)).toBeLessThanOrEqual(C * size);
      }
    },
  );

  it("a strict claim check's near matches (lenient searches of its quotes not found) stay within 8·(n + Σm) steps", () => {
    for (const scale of SCALES) {
      const text = "a b ".repeat(250 * scale);
      // Strict misses (a capital letter) that lenient matching finds, and misses both ways.
      const quotes = Array.from({ length: 20 * scale }, (_, index) =>
        index % 2 === 0 ? `A ${"b a ".repeat(50 + index)}b` : `${"a b ".repeat(50 + index)}b a`,
      );
      const prepared = prepareSources([{ id: "s", text }]);
      const verdicts = judgeClaims(
        prepared,
        quotes.map((quote) => ({ claim: "c", quote, source: "s" })),
      );
      expect(verdicts.every((verdict) => !verdict.grounded)).toBe(true);
      const near = verdicts.filter((verdict) => !verdict.grounded && verdict.unsupported.near !== undefined);
      expect(near.length).toBe(10 * scale);
      const size = text.length + quotes.reduce((sum, quote) => sum + quote.length, 0);
      expect(quoteSearchSteps(prepared.get("s") as PreparedSource)).toBeLessThanOrEqual(C * size);
    }
  });

  it("finding quotes at once stays within 8·(n + Σm) steps on generated near misses", () => {
    fc.assert(
      fc.property(nearMisses, fc.constantFrom<MatchMode>("strict", "lenient"), ({ text, quotes }, mode) => {
        const size = text.length + quotes.reduce((sum, quote) => sum + quote.length, 0);
        expect(
          stepsOf((counter) => findQuotesAtOnce(source(text), quotes, mode, counter)),
        ).toBeLessThanOrEqual(C * size);
      }),
      { numRuns: 300 },
    );
  });

  // Near-miss generators: periodic texts, quotes that repeat a prefix of the text, every token frequent.
  const unit = fc.array(fc.constantFrom("a", "b", " ", "ab", "a b", "\n"), { minLength: 1, maxLength: 4 });
  const nearMiss = fc
    .tuple(
      unit,
      fc.integer({ min: 1, max: 300 }),
      fc.integer({ min: 1, max: 300 }),
      fc.constantFrom("", "b", "c", " a"),
    )
    .map(([parts, times, quoteTimes, tail]) => {
      const period = parts.join("");
      return { text: period.repeat(times), quote: trimQuote(period.repeat(quoteTimes) + tail) };
    });

  const nearMisses = fc
    .tuple(
      unit,
      fc.integer({ min: 1, max: 300 }),
      fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 30 }),
    )
    .chain(([parts, times, quoteTimes]) =>
      fc
        .array(fc.constantFrom("", "b", "c", " a"), {
          minLength: quoteTimes.length,
          maxLength: quoteTimes.length,
        })
        .map((tails) => {
          const period = parts.join("");
          const quotes = quoteTimes.map((count, index) => trimQuote(period.repeat(count) + tails[index]));
          return { text: period.repeat(times), quotes: quotes.filter((quote) => quote !== "") };
        }),
    );

  it("strict and lenient stay within 8·(n + m) steps on generated near misses", () => {
    fc.assert(
      fc.property(nearMiss, ({ text, quote }) => {
        if (quote === "") return;
        const size = text.length + quote.length;
        expect(stepsOf((counter) => findStrictQuote(text, quote, counter))).toBeLessThanOrEqual(C * size);
        expect(
          stepsOf((counter) => findStrictQuoteInSource(source(text), quote, counter)),
        ).toBeLessThanOrEqual(C * size);
        expect(stepsOf((counter) => findLenientQuote(source(text), quote, counter))).toBeLessThanOrEqual(
          C * size,
        );
      }),
      { numRuns: 500 },
    );
  });

  it("label mentions stay within 16·(n + m) steps for labels repeated on every row and in every claim word", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("x", "x x", "1", "$", "net x"),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 400 }),
        (name, rows, mentions) => {
          const markdown = `| L | ${name} |\n|-|-|\n${`| ${name} | 7 |\n`.repeat(rows)}`;
          const folded = foldLabelText(`${`${name} `.repeat(mentions)}7`);
          const index = buildLabelIndex(parseTableLayouts(markdown));
          const steps = stepsOf((counter) => findNamedLabels(folded, index, counter));
          expect(steps).toBeLessThanOrEqual(C_LABELS * (markdown.length + folded.length));
        },
      ),
      { numRuns: 300 },
    );
  });
});
