import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitBlocks } from "./blocks.js";
import { splitSentences } from "./sentences.js";

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
});
