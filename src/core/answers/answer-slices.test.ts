import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { UNSPACED_STEPS_PER_CHAR } from "../text/index.js";
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

describe("answerCheckSteps: the answer is read for acronyms only when a claim holds a word in capitals", () => {
  // `# A` headings are no claim and `A` is no acronym: with no claim naming a word in capitals (`NASM`), no
  // acronym the answer defines can count, and the answer's 1,000,000-heading worth of capitalised runs is not
  // read for them (counted, not timed). One claim naming `NASA` brings that reading back: about a step per
  // character of the answer.
  const totalSteps = (answer: string): number => {
    const counter: StepCounter = { steps: 0 };
    const steps = answerCheckSteps([{ id: "a", text: "Alpha beta." }], answer, {}, STEP_BUDGET, counter);
    for (let step = steps.next(); step.done !== true; step = steps.next());
    return counter.steps;
  };
  it("headings, then a claim without and a claim with a word in capitals", () => {
    const headings = "# A\n".repeat(50_000);
    const without = totalSteps(`${headings}\nAlpha beta [a].`);
    const withCapitals = totalSteps(`${headings}\nAlpha NASA [a].`);
    expect(withCapitals - without).toBeGreaterThanOrEqual(headings.length);
  });
});

describe("answerCheckSteps: a claim of a script without spaces counts its words' cost between pauses", () => {
  it("judges and finishes claims of Japanese prose a claim's worth of words at a time (UNSPACED_STEPS_PER_CHAR)", () => {
    // 60 claims of 140 Han and Hiragana characters: each claim's words cost 16 × 140 steps, more than the step
    // budget, so the judging and the finishing each pause before every claim but the first.
    const words = "東京の会社が新しい製品を発表して大阪の市場で販売を始めたと報じられた";
    const claims = 60;
    const answer = `${words.repeat(5).slice(0, 140)}。 [1]\n`.repeat(claims);
    expect(UNSPACED_STEPS_PER_CHAR * 140).toBeGreaterThan(STEP_BUDGET);
    const steps = answerCheckSteps([{ id: "1", text: `${words}。` }], answer, {}, STEP_BUDGET);
    let pauses = 0;
    for (let step = steps.next(); step.done !== true; step = steps.next()) pauses += 1;
    expect(pauses).toBeGreaterThanOrEqual(2 * (claims - 1));
  });
});
