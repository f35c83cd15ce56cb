import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchExpected, validGrouping } from "./expected-answer.js";

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

describe("matchExpected: exact number equivalence", () => {
  it("keeps the sign, valid digit grouping, superscripts and fractions apart", () => {
    const pairs: [claim: string, expected: string][] = [
      ["It fell to -40 degrees.", "40"],
      ["It rose to 40 degrees.", "-40"],
      ["The ratio was 1,25 overall.", "125"],
      ["The area is 10² metres.", "102"],
      ["It took 3½ hours.", "31"],
      ["The code is 1,2,5,0 here.", "1250"],
      ["Sales were 1250 units.", "1,2,5,0"],
      ["It weighs 12,50 kg.", "1250"],
    ];
    for (const [claim, expected] of pairs) expect(matchExpected([claim], [expected]), claim).toBeNull();
  });

  it("still matches the same number however it is validly written", () => {
    expect(matchExpected(["It fell to −40 degrees."], ["-40"])?.expected).toBe("-40");
    expect(matchExpected(["It fell to -40 degrees."], ["-40"])?.range).toEqual([11, 14]);
    expect(matchExpected(["Revenue was 1,250,000.50 euros."], ["1250000.5"])).not.toBeNull();
    expect(matchExpected(["The area is 10² metres."], ["10²"])).not.toBeNull();
    expect(matchExpected(["It took 3½ hours."], ["3½ hours"])).not.toBeNull();
    expect(matchExpected(["The 2019-20 season"], ["20"])).not.toBeNull();
    expect(matchExpected(["It was -0 exactly."], ["0"])).not.toBeNull();
  });

  it("reads digit grouping in one pass: a first group of 1 to 3 digits, then groups of 3", () => {
    for (const valid of ["1", "1250", "1,250", "12,250,000", "1,250.75", "0.5"])
      expect(validGrouping(valid), valid).toBe(true);
    for (const invalid of ["1,25", "1,2,5,0", "1234,567", "1,250,00", "1.2.5", "1.250,5", "12,50"])
      expect(validGrouping(invalid), invalid).toBe(false);
  });

  // An independent oracle: a number string's identity from its parts (sign, then the value when its digits
  // are ASCII and validly grouped by split, else the text as written).
  function identity(written: string): string {
    const negative = /^[-−]/.test(written);
    const body = written.replace(/^[-−+]/, "");
    let value: string;
    if (!/^[0-9.,]+$/.test(body)) value = `text ${body}`;
    else {
      const [whole = "", fraction = "", ...more] = body.split(".");
      const groups = whole.split(",");
      const grouped =
        groups.length === 1 ||
        ((groups[0] as string).length <= 3 && groups.slice(1).every((group) => group.length === 3));
      if (more.length > 0 || fraction.includes(",") || !grouped || (groups[0] as string).length === 0)
        value = `text ${body}`;
      else {
        const digits = groups.join("").replace(/^0+(?=.)/, "");
        const decimals = fraction.replace(/0+$/, "");
        value = decimals === "" ? digits : `${digits}.${decimals}`;
      }
    }
    return negative && value !== "0" ? `-${value}` : value;
  }

  const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
  const grouped = fc
    .tuple(fc.integer({ min: 1, max: 999 }), fc.array(digits(3, 3), { maxLength: 3 }))
    .map(([head, groups]) => [String(head), ...groups].join(","));
  const looseCommas = fc.array(digits(1, 4), { minLength: 2, maxLength: 4 }).map((parts) => parts.join(","));
  const numberText = fc
    .tuple(
      fc.constantFrom("", "", "-", "−", "+"),
      fc.oneof(digits(1, 7), grouped, looseCommas),
      fc.option(digits(1, 3), { nil: undefined }),
      fc.constantFrom("", "", "", "²", "½", "³"),
    )
    .map(
      ([sign, whole, fraction, suffix]) =>
        `${sign}${whole}${fraction === undefined ? "" : `.${fraction}`}${suffix}`,
    );

  it("never finds one number in another: the property, against an independent oracle", () => {
    fc.assert(
      fc.property(numberText, numberText, (inClaim, expected) => {
        const found = matchExpected([`it was ${inClaim} then`], [expected]) !== null;
        expect(found).toBe(identity(inClaim) === identity(expected));
      }),
      { seed: 37, numRuns: 2000 },
    );
  });
});
