import { describe, expect, it } from "vitest";
import { checkAnswer } from "../../core/index.js";
import { assembleAnswer } from "./assemble-answer.js";

const sources = [{ id: "s", text: "Alpha beta gamma. Delta rose 5% in 2020." }];

describe("assembleAnswer", () => {
  it("takes one piece at the answer's start as it is: nothing copied or cut again", () => {
    // One line the stream could not cut (`. ` before a digit): its rest, the whole answer, is one piece.
    const answer = "Alpha beta gamma [s]. 5 of them left [s]. Delta rose 7% in 2020 [s].";
    const tally = { judged: 0, kept: 0 };
    const result = checkAnswer(sources, answer, { claimTally: tally });
    expect(result.unsupported.length).toBeGreaterThan(0);
    // Before, its entries were copied and the answer's text cut again: an equal result, not the same one.
    expect(assembleAnswer(answer, [{ offset: 0, chars: answer.length, result }], tally)).toBe(result);
  });

  it("cuts the text of one whole-answer piece checked without it (`withoutText`) from its entries", () => {
    const answer = "Alpha beta gamma [s].\nDelta rose 7% in 2020 [s].\n";
    const tally = { judged: 0, kept: 0 };
    const result = checkAnswer(sources, answer, { claimTally: tally, withoutText: true });
    expect(result.text).toBe("");
    const whole = checkAnswer(sources, answer);
    expect(whole.unsupported).toHaveLength(1);
    const piece = { offset: 0, chars: answer.length, result, withoutText: true };
    expect(assembleAnswer(answer, [piece], tally)).toEqual(whole);
  });

  it("assembles pieces cut at a line's start into the whole answer's check, a first piece alone too", () => {
    const answer = "Alpha beta gamma [s].\nDelta rose 7% in 2020 [s].\n";
    const tally = { judged: 0, kept: 0 };
    const cut = answer.indexOf("\n") + 1;
    const pieces = [
      { offset: 0, chars: cut, result: checkAnswer(sources, answer.slice(0, cut), { claimTally: tally }) },
      {
        offset: cut,
        chars: answer.length - cut,
        result: checkAnswer(sources, answer.slice(cut), { claimTally: tally }),
      },
    ];
    const whole = checkAnswer(sources, answer);
    expect(whole.unsupported).toHaveLength(1);
    expect(assembleAnswer(answer, pieces, tally)).toEqual(whole);
    // A piece of no claim is not listed: the first piece alone is not the whole answer.
    const [first] = pieces as [(typeof pieces)[number]];
    const withHeading = `${answer.slice(0, cut)}# Delta\n`;
    expect(assembleAnswer(withHeading, [first], { judged: 1, kept: 1 }).text).toBe(withHeading);
  });
});
