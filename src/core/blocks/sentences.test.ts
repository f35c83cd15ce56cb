import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { splitBlocks } from "./blocks.js";
import { LONG_LINE, splitSentences } from "./sentences.js";

/** Every prose line through `Intl.Segmenter`, no shortcuts: what `splitSentences` must agree with. */
function naiveProseSentences(text: string): string[] {
  const segmenter = new Intl.Segmenter("und", { granularity: "sentence" });
  const sentences: string[] = [];
  for (const block of splitBlocks(text)) {
    if (block.kind !== "line") continue;
    const line = text.slice(block.line.start, block.line.end);
    const marker = /^(?:#{1,6}[ \t]+|[-*+][ \t]+(?:\[[ xX]\][ \t]+)?|\d{1,3}[.)][ \t]+|>[ \t]*)+/.exec(line);
    for (const segment of segmenter.segment(line.slice(marker?.[0].length ?? 0))) {
      const trimmed = segment.segment.trim();
      if (/[\p{L}\p{N}]/u.test(trimmed)) sentences.push(trimmed);
    }
  }
  return sentences;
}

describe("splitSentences", () => {
  it.each([
    {
      name: "prose: sentences, decimal points and abbreviations with capitals kept together",
      text: "Revenue rose 4.2% to $18.4 million. U.S. sales grew.  Costs fell!",
      sentences: ["Revenue rose 4.2% to $18.4 million.", "U.S. sales grew.", "Costs fell!"],
    },
    {
      name: "every line on its own, markdown markers left out",
      text: "# Annual summary\n- First item\n* [x] Done task\n2. Numbered item\n> Quoted line",
      sentences: ["Annual summary", "First item", "Done task", "Numbered item", "Quoted line"],
    },
    {
      name: "lines with no letter or digit are skipped",
      text: "Before\n---\n***\nAfter",
      sentences: ["Before", "After"],
    },
    {
      name: "Japanese",
      text: "売上高は42億円だった。従業員数は350人です。",
      sentences: ["売上高は42億円だった。", "従業員数は350人です。"],
    },
    {
      name: "German",
      text: "Der Umsatz stieg 2023 auf 12,5 Millionen Euro. Größter Kunde ist die Stadtwerke Köln AG.",
      sentences: [
        "Der Umsatz stieg 2023 auf 12,5 Millionen Euro.",
        "Größter Kunde ist die Stadtwerke Köln AG.",
      ],
    },
  ])("$name", ({ text, sentences }) => {
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual(sentences);
  });

  it("quotes table rows whole and attaches the header, which is not itself a sentence", () => {
    const text = "Results:\n| Quarter | Revenue |\n|---|---|\n| Q1 2024 | 3.9 |";
    expect(splitSentences(text)).toEqual([
      { text: "Results:", start: 0, end: 8, header: null },
      { text: "| Q1 2024 | 3.9 |", start: 41, end: 58, header: "| Quarter | Revenue |" },
    ]);
  });

  it("cuts a very long line where sentences end, with the same result as short lines", () => {
    const sentence = "The fleet grew by 12 vessels in the year. ";
    const long = sentence.repeat(100).trim();
    const sentences = splitSentences(long);
    expect(sentences).toHaveLength(100);
    expect(new Set(sentences.map((each) => each.text))).toEqual(new Set([sentence.trim()]));
  });

  it("cuts a very long line without sentence ends at spaces, never inside a surrogate pair", () => {
    const long = `${"word ".repeat(500)}${"😀".repeat(1500)}`;
    for (const sentence of splitSentences(long)) {
      expect(sentence.text.length).toBeLessThanOrEqual(1000);
      expect(sentence.text).toBe(long.slice(sentence.start, sentence.end));
      expect(sentence.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
  });

  it("skipping the segmenter for lines without an inner sentence end changes nothing", () => {
    const alphabet = [
      ..."ab Cd 9 . ! ? 。 ！ ‼ ؟ । ” “ ) ( [ ] \" ' … \u2024 \u00a0 \u2028 \u0085 \t \n - # 東京 4.2 U.S. ",
    ];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 120 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (sample) => {
        const prose = splitSentences(sample).filter(
          (sentence) => sentence.header === null && !sentence.text.startsWith("|"),
        );
        expect(prose.map((sentence) => sentence.text)).toEqual(naiveProseSentences(sample));
      }),
      { numRuns: 1000 },
    );
  });

  it("every sentence is the trimmed source text at its offsets", () => {
    const alphabet = [..."abc XYZ 09 .!?。 \n\n| - # * 4.2 äß 東京 サクラ"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 120 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(text, (sample) => {
        for (const sentence of splitSentences(sample)) {
          expect(sample.slice(sentence.start, sentence.end)).toBe(sentence.text);
          expect(sentence.text).toBe(sentence.text.trim());
          expect(sentence.text).not.toBe("");
        }
      }),
    );
  });

  it("a lone high surrogate before a space in a long line is cut past (it used to loop for ever)", () => {
    const long = `x\ud800 ${"a".repeat(3 * LONG_LINE)}`;
    const sentences = splitSentences(long);
    expect(sentences.map((sentence) => sentence.text).join("")).toBe(long.replace(" ", ""));
    for (const sentence of sentences) expect(long.slice(sentence.start, sentence.end)).toBe(sentence.text);
  });
});

describe("splitSentences: linear in the worst case", () => {
  // Shapes that made a stage re-read what it had read: runs without spaces (the search for a space to cut
  // at), runs of terminators (the check for a sentence end inside a piece), abbreviations and tiny sentences
  // (many segments), CJK terminators (a break after each), fences, tables and lines of pipes, long runs of
  // closing brackets and of spaces, lone surrogates.
  const families: [string, (size: number) => string][] = [
    ["no spaces", (size) => "a".repeat(size)],
    ["no spaces, a full stop every other character", (size) => "A.".repeat(size / 2)],
    ["one space, then no more", (size) => `x ${"a".repeat(size)}`],
    ["a terminator run", (size) => "!".repeat(size)],
    ["a terminator run between words", (size) => `a${".".repeat(size)} b`],
    ["mixed terminators", (size) => `a${"?!".repeat(size / 2)}`],
    ["abbreviations", (size) => "U.S. e.g. Dr. ".repeat(size / 14)],
    ["tiny sentences, one a line", (size) => "A.\n".repeat(size / 3)],
    ["tiny sentences on one line", (size) => "A. ".repeat(size / 3)],
    ["CJK terminators only", (size) => "。".repeat(size)],
    ["CJK sentences", (size) => "東京。".repeat(size / 3)],
    ["fences", (size) => "```\nx\n".repeat(size / 6)],
    ["closing brackets after a full stop", (size) => `a.${")".repeat(size)} B`],
    ["spaces after a full stop", (size) => `a.${" ".repeat(size)}b`],
    ["paragraph separators", (size) => "a.\u2029".repeat(size / 3)],
    ["lone surrogates before spaces", (size) => `${"\ud800 ".repeat(size / 4)}${"a".repeat(size / 2)}`],
    ["a table", (size) => `|a|b|\n|-|-|\n${"|1|2|\n".repeat(size / 6)}`],
    ["lines of pipes that are no table", (size) => "|a\n".repeat(size / 3)],
    ["headings", (size) => "# A\n".repeat(size / 4)],
  ];

  it.each(families)("%s: steps grow linearly", (_, make) => {
    const stepsPerChar = (size: number): number => {
      const text = make(size);
      const counter: StepCounter = { steps: 0 };
      splitSentences(text, counter);
      return counter.steps / text.length;
    };
    const small = stepsPerChar(20_000);
    const large = stepsPerChar(160_000);
    // Eight times the text: steps per character stay the same (quadratic would be eight times as many).
    expect(large).toBeLessThan(small * 1.25 + 0.5);
    expect(large).toBeLessThan(16);
  });
});
