import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchExpected } from "./expected-answer.js";

describe("matchExpected", () => {
  it("finds an expected answer in a grounded claim, ignoring case and punctuation", () => {
    const claims = ["Revenue rose 5%.", "The CEO is Ada Lovelace."];
    expect(matchExpected(claims, ["ada lovelace"])).toEqual({
      expected: "ada lovelace",
      citation: 1,
      range: [11, 23],
    });
  });

  it("compares numbers by value: 1,250 equals 1250 and 3.50 equals 3.5", () => {
    expect(matchExpected(["Sales were 1,250 units."], ["1250 units"])?.range).toEqual([11, 22]);
    expect(matchExpected(["It costs $3.50."], ["3.5"])?.expected).toBe("3.5");
    expect(matchExpected(["Sales were 1,250 units."], ["125"])).toBeNull();
  });

  it("matches whole tokens only, and within one claim", () => {
    expect(matchExpected(["The Parisian café"], ["Paris"])).toBeNull();
    expect(matchExpected(["It was in Paris", "France hosted it"], ["Paris France"])).toBeNull();
  });

  it("takes the first expected answer that matches, in the order given", () => {
    const match = matchExpected(["Lyon and Paris"], ["Marseille", "Paris", "Lyon"]);
    expect(match).toEqual({ expected: "Paris", citation: 0, range: [9, 14] });
  });

  it("never matches an answer without tokens, nor with no claims", () => {
    expect(matchExpected(["a - b"], ["-"])).toBeNull();
    expect(matchExpected([], ["Paris"])).toBeNull();
  });

  it("gives a range whose slice holds the answer's tokens (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-c0-9 ,.]{0,12}$/), { maxLength: 4 }),
        fc.stringMatching(/^[a-c0-9 ]{1,6}$/),
        (claims, answer) => {
          const match = matchExpected(claims, [answer]);
          if (match === null) return;
          const claim = claims[match.citation] as string;
          const slice = claim.slice(match.range[0], match.range[1]);
          expect(matchExpected([slice], [answer])?.range).toEqual([0, slice.length]);
        },
      ),
    );
  });
});
