import { describe, expect, it } from "vitest";
import type { PreparedSource } from "../prepared-source.js";
import { quoteSearchSteps } from "../quotes/index.js";
import type { StepCounter } from "../step-counter.js";
import { checkAnswer, prepareAnswerSources } from "./check-answer.js";
import { MAX_SUPPORT_SENTENCES } from "./support.js";

// A page whose facts about one thing lie several sentences apart, with unrelated sentences between them.
const filler = (count: number): string =>
  Array.from({ length: count }, (_, index) => `Unrelated note ${index} about weather.`).join(" ");
const page = [
  "The Corvid lighthouse stands on granite.",
  filler(4),
  "Its keeper painted the tower crimson.",
  filler(6),
  "Fishermen rely on the beacon nightly.",
].join(" ");

describe("support pooled over several sentences of the cited source", () => {
  it("keeps a claim whose words lie in sentences far apart, listing each as a span", () => {
    const answer =
      "The Corvid lighthouse tower, painted crimson by its keeper, stands on granite, and fishermen rely on it [1].";
    const result = checkAnswer([{ id: "p", text: page }], answer);
    expect(result.unsupported).toEqual([]);
    const quotes = result.citations.map((citation) => citation.quote);
    expect(quotes).toContain("Its keeper painted the tower crimson.");
    expect(quotes).toContain("Fishermen rely on the beacon nightly.");
    for (const citation of result.citations) {
      expect(page.slice(citation.range[0], citation.range[1])).toBe(citation.quote);
    }
    expect(result.citations.length).toBeLessThanOrEqual(MAX_SUPPORT_SENTENCES);
  });

  it("does not pool sentences that add fewer than two missing words", () => {
    // Each far sentence adds one word only: the claim stays below the threshold.
    const scattered = [
      "Alpha bravo.",
      filler(3),
      "Charlie here.",
      filler(3),
      "Delta here.",
      filler(3),
      "Echo here.",
    ].join(" ");
    const result = checkAnswer(
      [{ id: "p", text: scattered }],
      "Alpha charlie delta echo foxtrot golf hotel [1].",
      { explain: true },
    );
    expect(result.unsupported[0]?.reason).toBe("no_support");
  });
});

describe("partial support", () => {
  const source = "The museum opened a new wing in 2021.";
  const answer = "The museum opened a new glass wing in 2021 [1].";

  it("keeps a partly supported claim and names each word no span holds, with its answer range", () => {
    const result = checkAnswer([{ id: "s", text: source }], answer);
    expect(result.unsupported).toEqual([]);
    expect(result.partial).toEqual([
      { claim: "The museum opened a new glass wing in 2021.", term: "glass", answerRange: [24, 29] },
    ]);
    expect(answer.slice(24, 29)).toBe("glass");
  });

  it("names a single missing word that another sentence of the source holds: one word does not pool", () => {
    const text = `The museum opened a new wing in 2021. ${filler(3)} Glass for the shop windows arrived in May.`;
    const result = checkAnswer([{ id: "s", text }], answer);
    expect(result.unsupported).toEqual([]);
    expect(result.partial.map((term) => term.term)).toEqual(["glass"]);
    expect(result.citations.map((citation) => citation.quote)).toEqual([
      "The museum opened a new wing in 2021.",
    ]);
  });

  it("drops it as partial_support under partial: drop, with the words in detail", () => {
    const result = checkAnswer([{ id: "s", text: source }], answer, { partial: "drop", explain: true });
    expect(result.partial).toEqual([]);
    expect(result.unsupported).toMatchObject([{ reason: "partial_support", detail: { words: ["glass"] } }]);
    expect(result.text).toBe("");
  });

  it("a fully supported claim names nothing and is kept under either policy", () => {
    for (const partial of ["keep", "drop"] as const) {
      const result = checkAnswer([{ id: "s", text: source }], "The museum opened a new wing in 2021 [1].", {
        partial,
      });
      expect(result.unsupported).toEqual([]);
      expect(result.partial).toEqual([]);
    }
  });

  it("a number or name no source holds is still a drop, never a partial", () => {
    const number = checkAnswer(
      [{ id: "s", text: source }],
      "The museum opened a new glass wing in 2022 [1].",
    );
    expect(number.unsupported[0]?.reason).toBe("number_not_found");
    const name = checkAnswer([{ id: "s", text: source }], "The museum opened a new Lisbon wing in 2021 [1].");
    expect(name.unsupported[0]?.reason).toBe("entity_not_found");
    expect([...number.partial, ...name.partial]).toEqual([]);
  });
});

describe("pooled support stays linear", () => {
  // Every sentence holds two of the claim's words and none holds the rest: each claim pools up to the bound.
  const families: [string, (size: number) => { sources: { id: string; text: string }[]; answer: string }][] =
    [
      [
        "each sentence adds two missing words",
        (size) => ({
          sources: [
            {
              id: "a",
              text: Array.from(
                { length: size / 40 },
                (_, index) => `Word${index % 30} and word${(index + 1) % 30} here.`,
              ).join(" "),
            },
          ],
          answer: `${Array.from({ length: 30 }, (_, index) => `word${index}`).join(" ")} [a]. `.repeat(
            size / 260,
          ),
        }),
      ],
      [
        "rare words spread over many sentences",
        (size) => ({
          sources: [
            {
              id: "a",
              text: Array.from(
                { length: size / 30 },
                (_, index) => `Term${index} term${index + 1} stays.`,
              ).join(" "),
            },
          ],
          answer: Array.from(
            { length: size / 60 },
            (_, index) => `Term${index} term${index + 7} term${index + 14} holds [a].`,
          ).join(" "),
        }),
      ],
      [
        "many claims citing one long sentence full of numbers and dates",
        (size) => ({
          sources: [
            {
              id: "a",
              text: `Published March 3, 2003. The fund paid ${Array.from({ length: 60 }, (_, index) => `${index + 100}K on 2003-03-${String((index % 28) + 1).padStart(2, "0")}`).join(", ")}.`,
            },
          ],
          answer: "The fund paid 101K and 21 thousand on March 3, 2004 [a]. ".repeat(size / 56),
        }),
      ],
      [
        "sentences about the sources with dates, one big source",
        (size) => ({
          sources: [{ id: "a", text: "On 2003-03-03 it paid 5K. ".repeat(size / 26) }],
          answer: "The passage lists 7K on March 4, 2003 [a]. ".repeat(size / 43),
        }),
      ],
    ];

  it.each(families)("%s: steps grow linearly", (_, make) => {
    const stepsAt = (size: number): number => {
      const { sources, answer } = make(size);
      const counter: StepCounter = { steps: 0 };
      checkAnswer(sources, answer, {}, counter);
      return counter.steps / size;
    };
    const small = stepsAt(10_000);
    const large = stepsAt(80_000);
    expect(large).toBeLessThan(small * 2 + 1);
  });
});

describe("numbers belong to the support", () => {
  const catalogue = [
    "The Corvid X phone starts at $799 with a steel frame.",
    filler(5),
    "The Zephyr tablet starts at $699 this spring.",
  ].join(" ");

  it("a number seen only in an unrelated sentence of the cited source is number_not_found, with where it was seen", () => {
    const result = checkAnswer([{ id: "c", text: catalogue }], "The Corvid X phone starts at $699 [1].", {
      explain: true,
    });
    expect(result.unsupported).toMatchObject([
      {
        reason: "number_not_found",
        detail: { number: "699", checked: "quote", seen: "The Zephyr tablet starts at $699 this spring." },
      },
    ]);
    const right = checkAnswer([{ id: "c", text: catalogue }], "The Corvid X phone starts at $799 [1].");
    expect(right.unsupported).toEqual([]);
  });

  it("among sentences with the same words, the one holding the claim's numbers is the support", () => {
    const report = "Revenue of the Lyon plant grew in 2019. Revenue of the Lyon plant grew in 2021.";
    const result = checkAnswer([{ id: "r", text: report }], "Revenue of the Lyon plant grew in 2021 [1].");
    expect(result.citations.map((citation) => citation.quote)).toEqual([
      "Revenue of the Lyon plant grew in 2021.",
    ]);
  });

  it("a page's dateline and the sentence beside the support count", () => {
    const page = `Published November 7, 2017\n${filler(6)} Mosqueda won the council race. She defeated Grant by 20 points.`;
    expect(
      checkAnswer([{ id: "p", text: page }], "Mosqueda won the council race in 2017 [1].").unsupported,
    ).toEqual([]);
    expect(
      checkAnswer([{ id: "p", text: page }], "Mosqueda won the council race by 20 points [1].").unsupported,
    ).toEqual([]);
    expect(
      checkAnswer([{ id: "p", text: page }], "Mosqueda won the council race in 2016 [1].").unsupported[0]
        ?.reason,
    ).toBe("number_not_found");
  });

  it("wrong_source names another source only when it holds the whole claim, numbers included", () => {
    const sources = [
      { id: "a", text: "Weather notes only." },
      { id: "b", text: "The Corvid X phone starts at $799." },
    ];
    const moved = checkAnswer(sources, "The Corvid X phone starts at $799 [a].", { explain: true });
    expect(moved.unsupported).toMatchObject([{ reason: "wrong_source", detail: { foundIn: ["b"] } }]);
    const wrongNumber = checkAnswer(sources, "The Corvid X phone starts at $699 [a].", { explain: true });
    expect(wrongNumber.unsupported[0]?.reason).not.toBe("wrong_source");
  });

  it("wrong_source names another source only when that source holds the claim's entities too", () => {
    const sources = [
      { id: "a", text: "Wren Audio makes speakers in Leeds." },
      { id: "b", text: "The Corvid X phone starts at $799 with a glass back." },
      { id: "c", text: "The Wren X phone starts at $799 with a glass back." },
    ];
    // Only `c` holds the name; `b` holds every other word and the number.
    const moved = checkAnswer(sources, "The Wren X phone starts at $799 with a glass back [a].", {
      explain: true,
    });
    expect(moved.unsupported).toMatchObject([{ reason: "wrong_source", detail: { foundIn: ["c"] } }]);
    const noName = checkAnswer(
      sources.slice(0, 2),
      "The Wren X phone starts at $799 with a glass back [a].",
      {
        explain: true,
      },
    );
    expect(noName.unsupported).toHaveLength(1);
    expect(noName.unsupported[0]?.reason).not.toBe("wrong_source");
    // The same through the number path: the cited source holds the words but not the number.
    const priced = [
      { id: "a", text: "The Wren X phone has a glass back and starts at $899." },
      { id: "b", text: "The Corvid X phone has a glass back and starts at $799." },
    ];
    const wrongPrice = checkAnswer(priced, "The Wren X phone has a glass back and starts at $799 [a].", {
      explain: true,
    });
    expect(wrongPrice.unsupported[0]?.reason).toBe("number_not_found");
  });

  it("wrong_source names another source only when that source holds the claim's quotations too", () => {
    const sources = [
      { id: "a", text: "The museum opens at nine." },
      { id: "b", text: "The harbour ferry crosses the bay every hour, which locals call the blue line." },
      { id: "c", text: "The harbour ferry crosses the bay every hour, which locals call the water bus." },
    ];
    const answer = 'The harbour ferry crosses the bay every hour, which locals call "the water bus" [a].';
    // `b` and `c` hold every word; only `c` holds the quotation.
    expect(checkAnswer(sources, answer, { explain: true }).unsupported).toMatchObject([
      { reason: "wrong_source", detail: { foundIn: ["c"] }, source: "c" },
    ]);
    // With no source that holds it, the verdict is the cited source's own, and its best span is the cited one's.
    const noQuotation = checkAnswer(sources.slice(0, 2), answer, { explain: true }).unsupported;
    expect(noQuotation).toHaveLength(1);
    expect(noQuotation[0]?.reason).toBe("no_support");
    expect(noQuotation[0]?.detail).not.toHaveProperty("foundIn");
    // The same through the number path: the cited source holds the words and the quotation, not the number.
    const timed = [
      { id: "a", text: 'The ferry, which locals call "the water bus", crosses the bay every 30 minutes.' },
      { id: "b", text: "The ferry crosses the bay every 20 minutes." },
    ];
    const timedAnswer = 'The ferry, "the water bus", crosses the bay every 20 minutes [a].';
    const wrongTime = checkAnswer(timed, timedAnswer, { explain: true }).unsupported;
    expect(wrongTime).toMatchObject([{ reason: "number_not_found", detail: { number: "20" } }]);
    const quoted = [
      timed[0] as (typeof timed)[number],
      { id: "b", text: 'The ferry crosses the bay every 20 minutes; locals call it "the water bus".' },
    ];
    expect(checkAnswer(quoted, timedAnswer, { explain: true }).unsupported).toMatchObject([
      { reason: "wrong_source", detail: { foundIn: ["b"] } },
    ]);
  });

  // Each clause's quotations are told to the other sources before any is searched, so the searches in a
  // source that many clauses could be moved to run at once: O(answer + sources), quote searches included.
  const letters = (index: number): string =>
    index
      .toString(26)
      .replace(/./g, (digit) => "abcdefghijklmnopqrstuvwxyz"[Number.parseInt(digit, 26)] as string);
  const quotedFamilies: [
    string,
    (size: number) => { sources: { id: string; text: string }[]; answer: string },
  ][] = [
    [
      "moved markers with quotations the other source lacks",
      (size) => ({
        sources: [
          { id: "a", text: "Weather notes only." },
          { id: "b", text: "The harbour ferry crosses the bay every hour. ".repeat(size / 46) },
        ],
        answer: Array.from(
          { length: size / 60 },
          (_, index) => `The harbour ferry crosses the bay, "the ${letters(index)} boat" [a].`,
        ).join(" "),
      }),
    ],
    [
      "numbers another source holds, with quotations it lacks",
      (size) => ({
        sources: [
          {
            id: "a",
            text: Array.from(
              { length: size / 100 },
              (_, index) => `The ferry "the ${letters(index)} boat" sails at 30.`,
            ).join(" "),
          },
          {
            id: "b",
            text: `The Zephyr ferry crosses the strait every 20 minutes. ${"Calm seas. ".repeat(size / 11)}`,
          },
        ],
        answer: Array.from(
          { length: size / 100 },
          (_, index) =>
            `The Zephyr ferry crosses the strait every 20 minutes, "the ${letters(index)} boat" [a].`,
        ).join(" "),
      }),
    ],
  ];

  it.each(quotedFamilies)("%s: steps grow linearly, quote searches included", (_, make) => {
    const stepsAt = (size: number): number => {
      const { sources: generated, answer } = make(size);
      const prepared = prepareAnswerSources(generated);
      const counter: StepCounter = { steps: 0 };
      const result = checkAnswer(prepared, answer, {}, counter);
      expect(result.unsupported.length).toBeGreaterThan(0);
      const searched = (prepared.indexed?.readable ?? []).reduce(
        (sum, source) => sum + quoteSearchSteps(source as PreparedSource),
        0,
      );
      return (counter.steps + searched) / size;
    };
    const small = stepsAt(10_000);
    const large = stepsAt(80_000);
    // Eight times the input: steps per character stay within a factor of two (quadratic would be eight).
    expect(large).toBeLessThan(small * 2 + 1);
  });
});
