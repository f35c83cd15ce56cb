import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Source } from "../../core/types.js";
import { sampleQuestion, sampleSources } from "../../sample.js";
import { claimSentenceSteps, DEFAULT_CLAIM_SELECTION, findClaimSentences } from "./claim-sentences.js";

const german: Source[] = [
  {
    id: "de",
    text: "Die Müller GmbH wurde 1998 in München gegründet. Der Umsatz stieg 2023 auf 12,5 Millionen Euro. Größter Kunde ist die Stadtwerke Köln AG.",
  },
];
const japanese: Source[] = [
  {
    id: "ja",
    text: "株式会社サクラは2010年に東京で設立された。2023年の売上高は42億円で、前年比12%増加した。従業員数は350人です。",
  },
];

/** The chosen sentences as `source: text`. */
function chosen(sources: readonly Source[], question: string): string[] {
  return findClaimSentences(sources, question).map((sentence) => `${sentence.source}: ${sentence.text}`);
}

describe("findClaimSentences", () => {
  it.each([
    {
      name: "the sample question: strongest quarter and growth, best first; not the title, which shares only the name and year",
      sources: sampleSources,
      question: sampleQuestion,
      sentences: [
        "annual-report-2024: The strongest quarter was Q4, with revenue of $5.6 million and an operating profit of $1.1 million.",
        "annual-report-2024: Revenue for 2024 was $18.4 million, a growth of 22% over 2023.",
      ],
    },
    {
      name: "a table row, ranked with its header's words",
      sources: sampleSources,
      question: "What was the operating profit in Q3?",
      sentences: ["annual-report-2024: | Q3 2024 | 4.7 | 0.8 |"],
    },
    {
      name: "a fact-sheet line",
      sources: sampleSources,
      question: "Who is the chief executive?",
      sentences: ["fact-sheet: Chief executive: Amélie Durand"],
    },
    {
      name: "the answer in two sources, the closer match first",
      sources: sampleSources,
      question: "How many employees does Northwind have?",
      sentences: [
        "fact-sheet: Employees: 240",
        "annual-report-2024: It was founded in 2016 in Lyon and ended the year with 240 employees.",
      ],
    },
    {
      name: "irrelevant: no shared word",
      sources: sampleSources,
      question: "Who painted the Mona Lisa?",
      sentences: [],
    },
    {
      name: "irrelevant: only the company's name is shared",
      sources: sampleSources,
      question: "What is Northwind's favorite color?",
      sentences: [],
    },
    { name: "only stop words", sources: sampleSources, question: "What is it, and why?", sentences: [] },
    { name: "empty question", sources: sampleSources, question: "", sentences: [] },
    { name: "no sources", sources: [], question: sampleQuestion, sentences: [] },
    {
      name: "German, with umlauts folded either way",
      sources: german,
      question: "Wo wurde die Muller GmbH gegrundet?",
      sentences: ["de: Die Müller GmbH wurde 1998 in München gegründet."],
    },
    {
      name: "German question word and article ignored",
      sources: german,
      question: "Wer ist der größte Kunde?",
      sentences: ["de: Größter Kunde ist die Stadtwerke Köln AG."],
    },
    {
      name: "Japanese: revenue",
      sources: japanese,
      question: "売上高はいくらですか？",
      sentences: ["ja: 2023年の売上高は42億円で、前年比12%増加した。"],
    },
    {
      name: "Japanese: headcount, though the dictionary splits 従業員 differently in each",
      sources: japanese,
      question: "従業員は何人ですか？",
      sentences: ["ja: 従業員数は350人です。"],
    },
    { name: "Japanese: irrelevant", sources: japanese, question: "天気はどうですか？", sentences: [] },
  ])("$name", ({ sources, question, sentences }) => {
    expect(chosen(sources, question)).toEqual(sentences);
  });

  describe("answers from the best-ranked sentence when any content word matches", () => {
    const policy: Source[] = [
      {
        id: "policy",
        text: [
          "Orders leave the warehouse within 2 business days.",
          "Shipping takes 2 days.",
          "Batteries are covered for 12 months.",
          "Refunds are issued within 30 days of receiving the returned item.",
          "Standard shipping is €4.95 per order.",
        ].join(" "),
      },
    ];
    const withoutPrices: Source[] = [
      { id: "policy", text: (policy[0] as Source).text.replace(/ Standard shipping.*$/, "") },
    ];
    it.each([
      {
        name: "one of two content words found (the sources never say `warranty`)",
        sources: policy,
        question: "How long is the warranty on batteries?",
        first: "policy: Batteries are covered for 12 months.",
      },
      {
        name: "a price question gets the price, not the delivery time",
        sources: policy,
        question: "How much does shipping cost?",
        first: "policy: Standard shipping is €4.95 per order.",
      },
      {
        name: "`take` of `how long … take` does not pull in another sentence's `takes`",
        sources: policy,
        question: "How long do refunds take?",
        first: "policy: Refunds are issued within 30 days of receiving the returned item.",
      },
      {
        name: "stemmed on both sides: refunded / refunds, shipped / shipping",
        sources: policy,
        question: "When is a returned order refunded?",
        first: "policy: Refunds are issued within 30 days of receiving the returned item.",
      },
      {
        name: "a sentence that can hold an amount outranks one that cannot",
        sources: [
          {
            id: "s",
            text: "The battery warranty is explained in the booklet. The battery warranty runs for 24 months from purchase.",
          },
        ],
        question: "How long is the battery warranty?",
        first: "s: The battery warranty runs for 24 months from purchase.",
      },
    ])("$name", ({ sources, question, first }) => {
      expect(chosen(sources, question)[0]).toBe(first);
    });

    it("a price question with no price in the sources abstains rather than quote a delivery time", () => {
      expect(chosen(withoutPrices, "How much does shipping cost?")).toEqual([]);
    });

    it("a table row named by its row and a column outranks prose with the same words", () => {
      const text = [
        "Revenue grew in every quarter, and Q2 was the busiest.",
        "",
        "| Quarter | Revenue | Costs |",
        "|---|---|---|",
        "| Q1 | 3.9 | 2.1 |",
        "| Q2 | 4.2 | 2.6 |",
      ].join("\n");
      expect(chosen([{ id: "t", text }], "What was the revenue in Q2?")[0]).toBe("t: | Q2 | 4.2 | 2.6 |");
    });

    it("a column header gives its rows the kind of answer asked for", () => {
      const text = [
        "The price list is updated monthly.",
        "",
        "| Item | Price |",
        "|---|---|",
        "| lamp | 40 |",
      ].join("\n");
      expect(chosen([{ id: "t", text }], "How much does the lamp cost?")).toEqual(["t: | lamp | 40 |"]);
    });

    it("a row label that every row shares (the year) names no row", () => {
      const text = [
        "Revenue in 2024 was 8.1, the highest yet.",
        "",
        "| Quarter | Revenue |",
        "|---|---|",
        "| Q1 2024 | 3.9 |",
        "| Q2 2024 | 4.2 |",
      ].join("\n");
      expect(chosen([{ id: "t", text }], "What was the revenue in 2024?")[0]).toBe(
        "t: Revenue in 2024 was 8.1, the highest yet.",
      );
    });
  });

  it("steps grow linearly with a table whose every row the question names by row and column", () => {
    const table = (rows: number) =>
      [
        "| Item | Price |",
        "|---|---|",
        ...Array.from({ length: rows }, (_, index) => `| item ${index} | ${index}.50 |`),
      ].join("\n");
    const steps = (rows: number) => {
      const run = claimSentenceSteps([{ id: "t", text: table(rows) }], "What is the price of item 7?");
      let count = 0;
      while (run.next().done !== true) count++;
      return count;
    };
    const small = steps(2_000);
    const large = steps(8_000);
    expect(small).toBeGreaterThan(2);
    expect(large / small).toBeGreaterThan(3);
    expect(large / small).toBeLessThan(5);
  });

  it("returns offsets into the source", () => {
    const sources = [{ id: "a", text: "Intro line.\n\nThe launch date is 4 May. Nothing else." }];
    expect(findClaimSentences(sources, "When is the launch date?")).toEqual([
      { source: "a", text: "The launch date is 4 May.", start: 13, end: 38 },
    ]);
  });

  it("keeps at most maxClaims, the best ones, best first", () => {
    const text = [
      "Alpha appears here once.",
      "Alpha and beta appear here.",
      "Alpha beta gamma all appear here.",
      "Alpha beta gamma delta everything.",
    ].join(" ");
    const question = "alpha beta gamma delta";
    const texts = (maxClaims: number) =>
      findClaimSentences([{ id: "s", text }], question, { ...DEFAULT_CLAIM_SELECTION, maxClaims }).map(
        (sentence) => sentence.text,
      );
    expect(texts(1)).toEqual(["Alpha beta gamma delta everything."]);
    expect(texts(2)).toEqual(["Alpha beta gamma delta everything.", "Alpha beta gamma all appear here."]);
  });

  it("returns a repeated sentence once and skips a source whose id repeats", () => {
    const sources = [
      { id: "a", text: "The warranty lasts five years." },
      { id: "b", text: "The warranty lasts five years." },
      { id: "a", text: "The warranty period is five years long." },
    ];
    expect(chosen(sources, "How many years does the warranty last?")).toEqual([
      "a: The warranty lasts five years.",
    ]);
  });

  it("is deterministic", () => {
    const first = findClaimSentences(sampleSources, sampleQuestion);
    expect(findClaimSentences(sampleSources, sampleQuestion)).toEqual(first);
  });

  it("every chosen sentence is its source's text at its offsets, and found there verbatim", () => {
    const alphabet = [..."abc de fgh Q3 4.2 äß 東京 サクラ は . ! ? \n | - # "];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }).map((chars) => chars.join(""));
    const sources = fc.uniqueArray(fc.record({ id: fc.constantFrom("a", "b", "c"), text }), {
      selector: (source) => source.id,
      maxLength: 3,
    });
    fc.assert(
      fc.property(sources, text, (sample, question) => {
        const result = findClaimSentences(sample, question);
        expect(result.length).toBeLessThanOrEqual(DEFAULT_CLAIM_SELECTION.maxClaims);
        for (const sentence of result) {
          const source = sample.find((each) => each.id === sentence.source);
          expect(source?.text.slice(sentence.start, sentence.end)).toBe(sentence.text);
        }
      }),
    );
  });
});
