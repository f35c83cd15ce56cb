import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankSentencesBm25, scoreSentencesBm25 } from "./bm25.js";

/** Textbook BM25, written for clarity, to check the implementation against. */
function naiveBm25(sentences: string[][], question: string[]): { index: number; score: number }[] {
  const terms = [...new Set(question)];
  const count = sentences.length;
  const average = sentences.reduce((sum, sentence) => sum + sentence.length, 0) / count || 1;
  const scored = sentences.map((sentence, index) => {
    let score = 0;
    for (const term of terms) {
      const tf = sentence.filter((word) => word === term).length;
      if (tf === 0) continue;
      const found = sentences.filter((other) => other.includes(term)).length;
      const idf = Math.log(1 + (count - found + 0.5) / (found + 0.5));
      score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * sentence.length) / average));
    }
    return { index, score };
  });
  return scored.filter((each) => each.score > 0).sort((a, b) => b.score - a.score || a.index - b.index);
}

describe("rankSentencesBm25", () => {
  const sentences = [
    ["northwind", "founded", "2016", "lyon"],
    ["revenue", "2024", "18.4", "million"],
    ["strongest", "quarter", "q4", "revenue", "5.6", "million"],
    ["office", "madrid", "2025"],
  ];

  it.each([
    {
      name: "the sentence with the rarer matching terms first",
      question: ["strongest", "quarter"],
      order: [2],
    },
    { name: "shared term: shorter sentence first", question: ["revenue"], order: [1, 2] },
    { name: "no shared term: nothing", question: ["capital", "france"], order: [] },
    { name: "empty question: nothing", question: [], order: [] },
  ])("$name", ({ question, order }) => {
    expect(rankSentencesBm25(sentences, question).map((rank) => rank.index)).toEqual(order);
  });

  it("coverage is the matched share of the question's IDF weight; unseen terms weigh as rare ones", () => {
    const ranks = rankSentencesBm25(sentences, ["strongest", "capital"]);
    expect(ranks).toEqual([{ index: 2, score: expect.any(Number), coverage: 0.5 }]);
  });

  it("foundShare is the share of the question's weight that any sentence holds", () => {
    const two = [
      ["warranty", "battery"],
      ["delivery", "day"],
    ];
    expect(scoreSentencesBm25(two, ["battery", "colour"]).foundShare).toBe(0.5);
    expect(scoreSentencesBm25(two, ["battery", "day"]).foundShare).toBe(1);
    expect(scoreSentencesBm25(two, ["colour"])).toEqual({ ranks: [], foundShare: 0 });
    // A term in both sentences weighs less than an unseen one, which weighs as a term in one sentence.
    const common = [["acme", "battery"], ["acme", "day"], ["other"]];
    const share = scoreSentencesBm25(common, ["acme", "colour"]).foundShare;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(0.5);
  });

  it("ties keep the original order", () => {
    const ranks = rankSentencesBm25([["a", "b"], ["c"], ["a", "b"]], ["a"]);
    expect(ranks.map((rank) => rank.index)).toEqual([0, 2]);
  });

  it("no sentences: nothing", () => {
    expect(rankSentencesBm25([], ["revenue"])).toEqual([]);
  });

  it("agrees with a textbook implementation", () => {
    const word = fc.constantFrom("a", "b", "c", "d", "e", "f");
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 8 }), { maxLength: 12 }),
        fc.array(word, { maxLength: 4 }),
        (sample, question) => {
          const actual = rankSentencesBm25(sample, question);
          const expected = naiveBm25(sample, question);
          expect(actual.map((rank) => rank.index)).toEqual(expected.map((rank) => rank.index));
          actual.forEach((rank, position) => {
            expect(rank.score).toBeCloseTo(expected[position]?.score ?? Number.NaN, 10);
            expect(rank.coverage).toBeGreaterThan(0);
            expect(rank.coverage).toBeLessThanOrEqual(1 + 1e-12);
          });
        },
      ),
    );
  });
});
