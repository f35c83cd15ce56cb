import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAnswer, prepareAnswerSources } from "./check-answer.js";

// Sources and answers written for this test.
const sources = [
  {
    id: "report",
    text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million, up 22% over 2023. The company employs 240 people in four offices.",
  },
  {
    id: "yard",
    text: "Parts leave the yard in Lyon every night. Logistics staff at the Centre load 300 crates a week.",
  },
];
const sentences = [
  "Northwind was founded in 2016 in Lyon [report].",
  "Revenue for 2024 was $19.9 million [report].",
  "The Lyon Logistics Centre (LLC) loads 300 crates a week [yard].",
  "The LLC sends parts every night [yard].",
  "Its chief executive is Maria Lopez [report].",
  "Parts leave the yard every night, with 240 staff [yard].",
  'The report says "up 22% over 2023" [report].',
  "Zebras graze near the harbour.",
];

describe("prepareAnswerSources", () => {
  it("gives each answer the check it gets alone, the sources indexed once for all of them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: sentences.length - 1 }), { maxLength: 5 }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.constantFrom({}, { mode: "lenient" as const, explain: true }, { partial: "drop" as const }),
        (answers, options) => {
          const prepared = prepareAnswerSources(sources);
          for (const picked of answers) {
            const answer = picked.map((index) => sentences[index]).join(" ");
            expect(checkAnswer(prepared, answer, options)).toEqual(checkAnswer(sources, answer, options));
          }
        },
      ),
      { seed: 3603, numRuns: 80 },
    );
  });

  it("reads the sources once, however many answers are checked against them", () => {
    const large = [{ id: "large", text: "Northwind ships parts from Lyon every night. ".repeat(2000) }];
    const steps = (answers: number) => {
      const prepared = prepareAnswerSources(large);
      const counter = { steps: 0 };
      for (let index = 0; index < answers; index++)
        checkAnswer(prepared, "Northwind ships parts every night [large].", {}, counter);
      return counter.steps;
    };
    const sourceChars = (large[0] as { text: string }).text.length;
    // Twenty more answers cost their own reading, not another pass over the 90,000-character source.
    expect(steps(21) - steps(1)).toBeLessThan(sourceChars);
  });
});
