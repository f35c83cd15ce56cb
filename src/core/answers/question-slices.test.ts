import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { type AnswerCheckOptions, answerCheckSteps } from "./check-answer.js";

// Issue 34 item 3: 4 MiB of question text (the user's messages of a `/check` with `answer`, or of create with
// `answer_format: "text"`) is read a slice at a time: its reading is counted, and between two pauses of the
// check no more than a few slices of steps are (counted, not timed). A slice is ten times the step budget.
const STEP_BUDGET = 1_000;
const SLICE_STEPS = 10 * STEP_BUDGET;

function checkSteps(
  question: readonly string[],
  questionTerms?: AnswerCheckOptions["questionTerms"],
): { total: number; largest: number } {
  const counter: StepCounter = { steps: 0 };
  const steps = answerCheckSteps(
    [{ id: "s", text: "Alpha beta gamma delta." }],
    "Alpha beta gamma [s].",
    { question, questionTerms },
    STEP_BUDGET,
    counter,
  );
  let largest = 0;
  let before = 0;
  for (let step = steps.next(); ; step = steps.next()) {
    largest = Math.max(largest, counter.steps - before);
    before = counter.steps;
    if (step.done === true) return { total: counter.steps, largest };
  }
}

describe("answerCheckSteps: 4 MiB of question text is read a slice at a time", () => {
  it.each([
    ["words", "Alpha beta gamma delta epsilon zeta eta "],
    ["numbers, dates and percentages", "1,250 in 2019-03-04 and 17% of 3.5 million "],
  ])("%s", (_, unit) => {
    const question = unit.repeat(Math.floor((4 * 1024 * 1024) / unit.length));
    const without = checkSteps([]).total;
    const { total, largest } = checkSteps([question]);
    // Every character of the question is counted, and no slice holds more than a few slices' worth.
    expect(total - without).toBeGreaterThanOrEqual(question.length);
    expect(largest).toBeLessThan(4 * SLICE_STEPS);
  });
});

describe("answerCheckSteps: checks of one question's answer in pieces read the question once", () => {
  it("the first check with a questionTerms holder reads the question; the next reads the holder", () => {
    const question = "Alpha beta gamma delta epsilon zeta eta ".repeat(10_000);
    const without = checkSteps([]).total;
    const shared = {};
    const first = checkSteps([question], shared).total;
    const second = checkSteps([question], shared).total;
    expect(first - without).toBeGreaterThanOrEqual(question.length);
    // A streamed answer of a thousand pieces would otherwise read 4 MiB of question text a thousand times.
    expect(second).toBe(without);
  });
});
