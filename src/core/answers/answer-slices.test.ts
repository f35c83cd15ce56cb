import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { answerCheckSteps, checkAnswer } from "./check-answer.js";

// The worst-case bench's answer-splitting families at 200,000 characters (bench/support/worst-case-families.ts):
// between two pauses of the check, no more than about a slice of steps is counted, so no stage of the check
// (masking, splitting, indexing, acronyms, judging) does an answer's worth of work at once. A slice is ten
// times the step budget (`answerCheckSteps`).
const STEP_BUDGET = 1_000;
const SLICE_STEPS = 10 * STEP_BUDGET;

function largestSlice(answer: string): number {
  const counter: StepCounter = { steps: 0 };
  const steps = answerCheckSteps([{ id: "a", text: "Alpha beta." }], answer, {}, STEP_BUDGET, counter);
  let largest = 0;
  let before = 0;
  for (let step = steps.next(); ; step = steps.next()) {
    largest = Math.max(largest, counter.steps - before);
    before = counter.steps;
    if (step.done === true) return largest;
  }
}

describe("answerCheckSteps: no stage counts more than a few slices between two pauses", () => {
  it.each([
    ["code fences", "```\nx\n```\n", 20_000],
    ["footnote definitions", "[^1]: a\n", 25_000],
    ["headings", "# A\n", 50_000],
    ["line breaks", "\n", 200_000],
    ["fences with a marker on every other line", "```\nx\n```\nAlpha [a].\n", 10_000],
    ["one line with no sentence end", "alpha beta gamma epsilon ", 8_000],
    ["one line of short sentences", "Omega psi. ", 20_000],
  ])("%s", (_, unit, count) => {
    const answer = `${unit.repeat(count)}\nAlpha [a].`;
    // A pause comes after at most a slice and one run of the stage (PAUSE_EVERY lines or spans); a stage that
    // counted its pass over the whole answer at once would show it here (more than 100 slices).
    expect(largestSlice(answer)).toBeLessThan(4 * SLICE_STEPS);
  });
});

describe("checkAnswer: the lookups of entities held in another form are linear (counted, not timed)", () => {
  // Every word pair of one long claim is a name the source writes in another form (`Tech Crunch` where it
  // writes `TechCrunch`, `British` where it writes `UK`): each entity is looked up among the clause's
  // equivalent ranges. A table row is not cut into pieces, so a row of k entities has k ranges: a lookup that
  // read every range would cost k².
  const families: [string, string, (count: number) => string][] = [
    [
      "a table row of joined names",
      "TechCrunch growth reports rates.",
      (count) => `| Name | Note |\n|---|---|\n| ${"Tech Crunch growth ".repeat(count)}| x [s] |`,
    ],
    [
      "a table row of demonyms",
      "The UK growth rates.",
      (count) => `| Name | Note |\n|---|---|\n| ${"British growth ".repeat(count)}| x [s] |`,
    ],
    [
      "a prose sentence of demonyms",
      "The UK growth rates.",
      (count) => `${"British growth ".repeat(count)}[s].`,
    ],
  ];

  it.each(families)(
    "%s: steps per character stay flat as the claim doubles from 1× to 16×",
    (_, text, make) => {
      const stepsPerChar = (count: number): number => {
        const answer = make(count);
        const counter: StepCounter = { steps: 0 };
        checkAnswer([{ id: "s", text }], answer, {}, counter);
        return counter.steps / answer.length;
      };
      const base = stepsPerChar(100);
      for (const scale of [2, 4, 8, 16]) expect(stepsPerChar(100 * scale)).toBeLessThan(1.5 * base);
    },
  );
});
