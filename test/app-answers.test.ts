// The twelve app-style answers (bench/support/app-answers.ts) as a ledger: every line gets its careful
// reader's verdict except those listed below, each with the work it waits on. A change that fixes one fails
// here until the line leaves the list; a change that breaks another fails too.
import { describe, expect, it } from "vitest";
import { APP_ANSWERS, judgeAppAnswers } from "../bench/support/app-answers.js";
import { checkAnswer } from "../src/core/index.js";

/** Lines answer mode gets wrong today: `answer name / find` and why. */
const KNOWN_WRONG: Record<string, string> = {};

describe("twelve answers as apps write them", () => {
  const outcomes = judgeAppAnswers(checkAnswer);

  it("holds twelve answers, each line judged", () => {
    expect(APP_ANSWERS).toHaveLength(12);
    expect(outcomes.length).toBeGreaterThanOrEqual(40);
  });

  for (const outcome of outcomes) {
    const key = `${outcome.answer} / ${outcome.part.find}`;
    it(key, () => {
      const known = KNOWN_WRONG[key];
      // A line listed as wrong must still be wrong: once fixed, it leaves the list.
      expect({ right: outcome.right, known: known !== undefined }).toEqual({
        right: known === undefined,
        known: known !== undefined,
      });
    });
  }

  it("lists only lines that exist", () => {
    const keys = new Set(outcomes.map((outcome) => `${outcome.answer} / ${outcome.part.find}`));
    expect(Object.keys(KNOWN_WRONG).filter((key) => !keys.has(key))).toEqual([]);
  });
});
