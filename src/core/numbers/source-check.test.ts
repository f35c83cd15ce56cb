import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkSourceNumbers } from "./source-check.js";

const SOURCE = {
  id: "report",
  text: "In FY2023 revenue rose 12% to $1,200.50 million; the loss was (34). Q3 had 5kg of 30-day samples.",
};

describe("checkSourceNumbers", () => {
  it.each([
    { name: "no numbers", claim: "Revenue rose in Q3.", grounded: true },
    { name: "every number present", claim: "Revenue rose 12% to $1,200.50 million.", grounded: true },
    {
      name: "other spelling of the same numbers",
      claim: "Revenue was 1200.5 and rose 12.0 percent.",
      grounded: true,
    },
    { name: "sign and parentheses ignored", claim: "The loss was -34.", grounded: true },
    { name: "units glued to numbers", claim: "5 kg over 30 days.", grounded: true },
    { name: "labels hold no number", claim: "FY2023 and Q3 and H1.", grounded: true },
    { name: "one number missing", claim: "Revenue rose 13% to $1,200.50 million.", grounded: false },
    { name: "1.5 is not 15", claim: "It rose 1.2.", grounded: false },
    { name: "a label's digits are not a number of the source", claim: "Revenue was 2023.", grounded: false },
  ])("$name", ({ claim, grounded }) => {
    expect(checkSourceNumbers(claim, SOURCE)).toBe(grounded);
  });

  it("grounds any number taken from the source, however it is spelled", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 99 }), fc.nat({ max: 3 }), (whole, cents, zeros) => {
        const text = `Total: ${whole.toLocaleString("en-US")}.${String(cents).padStart(2, "0")} units.`;
        const claim = `It was ${whole}.${String(cents).padStart(2, "0")}${"0".repeat(zeros)} units.`;
        expect(checkSourceNumbers(claim, { id: "s", text })).toBe(true);
        expect(checkSourceNumbers(`It was ${whole + 1}.`, { id: "s", text })).toBe(false);
      }),
    );
  });
});
