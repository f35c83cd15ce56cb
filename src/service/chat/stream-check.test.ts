import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AnswerCheckOptions, checkAnswer } from "../../core/index.js";
import { checkAnswerYielding } from "../check-answer.js";
import { createStreamCheck, STREAM_CHECK_BATCH_CHARS } from "./stream-check.js";

// Sources and sentences written for this test.
const sources = [
  {
    id: "report",
    text: "Northwind was founded in 2016 in Lyon. Revenue for 2024 was $18.4 million, up 22% over 2023. The company employs 240 people in four offices.",
  },
  {
    id: "depot",
    text: "The depot ships spare parts every night. The harbour office opened in 2019 in Marseille.",
  },
  {
    id: "yard",
    text: "Parts leave the yard in Lyon every night. Logistics staff at the Centre load 300 crates a week.",
  },
];

/** Sentences and lines of every kind the answer splitter reads differently by context. */
const pieces = [
  "Northwind was founded in 2016 in Lyon [report]. ",
  "Revenue for 2024 was $18.4 million [report]. ",
  "Revenue for 2024 was $19.9 million [report]. ",
  "The company employs 240 people [report].\n",
  "Its chief executive is Maria Lopez [report]. ",
  "The harbour office opened in 2019 [2]. ",
  "Here's a summary. ",
  "## Overview\n",
  "- Lyon hosts the head office [report].\n",
  "The depot ships spare parts every night [depot]. ",
  "The harbour office is in Marseille [depot]. ",
  "Revenue rose 22% [^1].\n\n[^1]: report\n",
  "\n\n",
  "Northwind employs 240 people in four offices. ",
  "Northwind was founded in 2016 in sunny Lyon [report]. ",
  'The report says "up 22% over 2023" [report]. ',
  "Key facts:\n",
  "> Revenue for 2024 was $18.4 million.\n",
  "Shipping started in 2016 [depot] and the office opened in 2019 [depot]. ",
  "| Year | Revenue |\n|---|---|\n| 2024 | $18.4 million [report] |\n",
  "```\nRevenue was $99 million [report].\n```\n",
  "**Staff.** The company employs 240 people [report]. ",
  // An acronym defined by the answer: its later use names no missing entity, in the whole answer only.
  "The Lyon Logistics Centre (LLC) loads 300 crates a week [yard]. ",
  "The LLC sends parts every night [yard]. ",
];

const optionSets: AnswerCheckOptions[] = [
  {},
  { partial: "drop", explain: true, question: ["How large is Northwind?"] },
  { mode: "lenient", checkNumbers: false },
];

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Feeds `answer` cut at `cuts` into a stream check, letting `gaps[i]` turns pass after piece i. */
async function streamed(
  answer: string,
  cuts: readonly number[],
  gaps: readonly number[],
  options: AnswerCheckOptions,
) {
  const check = createStreamCheck(sources, options);
  const edges = [...new Set([0, ...cuts.map((cut) => cut % (answer.length + 1)), answer.length])].sort(
    (a, b) => a - b,
  );
  for (let index = 1; index < edges.length; index++) {
    check.onText(answer.slice(edges[index - 1], edges[index]));
    for (let wait = 0; wait < (gaps[index % Math.max(gaps.length, 1)] ?? 0); wait++) await turn();
  }
  return { result: await check.finish(answer), finished: check.finished };
}

const oneShot = (answer: string, options: AnswerCheckOptions) =>
  checkAnswerYielding(sources, answer, options, undefined, undefined, { author: "model" });

describe("createStreamCheck", () => {
  it.each([
    ["in batches", false],
    ["sentence by sentence, for held sentences", true],
  ])(
    "assembles the check of a plain answer checked %s, checking only what is left at the end",
    async (_name, held) => {
      const last = "The company employs 240 people [report].";
      const body = `${pieces[0]}${pieces[2]}${pieces[13]}${pieces[14]}`.repeat(12);
      const answer = body + last;
      const chunks = answer.match(/.{1,4}/gsu) ?? [];
      const released: string[] = [];
      const check = createStreamCheck(
        sources,
        {},
        undefined,
        held ? (piece) => released.push(piece) : undefined,
      );
      for (const chunk of chunks) {
        check.onText(chunk);
        await turn();
        await turn();
      }
      const result = await check.finish(answer);
      expect(result).toEqual(await oneShot(answer, {}));
      expect(check.finished?.path).toBe("assembled");
      if (held) {
        // The sentence before the last is checked once enough of the last has come; it may still be open.
        expect(check.finished?.checkedChars).toBeLessThanOrEqual((pieces[14] as string).length + last.length);
        expect(released.join("")).toBe(answer);
      } else {
        expect(check.finished?.checkedChars).toBeLessThanOrEqual(STREAM_CHECK_BATCH_CHARS + last.length);
      }
    },
  );

  it.each([
    ["a footnote defined after the sentence that cites it", `${pieces[11]}`],
    ["a list lead-in", `${pieces[16]}${pieces[8]}`],
    ["an acronym defined in an earlier sentence", `${pieces[22]}${pieces[23]}${pieces[4]}`],
  ])("equals the one-shot check with %s", async (_name, answer) => {
    const everyFour = Array.from({ length: answer.length / 4 }, (_, index) => 4 * index);
    for (const options of optionSets) {
      // Four characters at a time with two turns between: each sentence is checked on its own.
      for (const [cuts, gaps] of [
        [everyFour, [2]],
        [
          [3, 17, 40, 55, 90],
          [2, 0, 3],
        ],
      ]) {
        const { result } = await streamed(answer, cuts as number[], gaps as number[], options);
        expect(result).toEqual(await oneShot(answer, options));
      }
    }
  });

  it("gives the report of one check of the whole answer, however the stream cuts and paces it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: pieces.length - 1 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(2000), { maxLength: 40 }),
        fc.array(fc.nat(3), { maxLength: 8 }),
        fc.integer({ min: 0, max: optionSets.length - 1 }),
        async (picked, cuts, gaps, optionIndex) => {
          const answer = picked.map((index) => pieces[index]).join("");
          const options = optionSets[optionIndex] as AnswerCheckOptions;
          const { result } = await streamed(answer, cuts, gaps, options);
          expect(result).toEqual(await oneShot(answer, options));
        },
      ),
      { seed: 3601, numRuns: 120 },
    );
  });

  it("shares the best spans' budget between pieces checked in order as one check spends it", () => {
    // Each sentence fails with a best span; the budget holds the first span only.
    const first = "Revenue for 2024 was $19.9 million [report]. ";
    const second = "Revenue for 2024 was $21.3 million [report]. ";
    const whole = checkAnswer(sources, first + second, { maxBestSpanChars: 60 });
    expect(whole.unsupported.map((entry) => entry.quote !== undefined)).toEqual([true, false]);
    const budget = { chars: 60 };
    const parts = [first, second].map((piece) => checkAnswer(sources, piece, { bestSpanBudget: budget }));
    expect(parts.flatMap((part) => part.unsupported.map((entry) => entry.quote !== undefined))).toEqual([
      true,
      false,
    ]);
    expect(budget.chars).toBe(-1);
  });
});
