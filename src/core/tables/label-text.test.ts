import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findNumbers } from "../numbers/scan.js";
import { foldLabelText, stripTrailingParenthetical } from "./label-text.js";

describe("foldLabelText", () => {
  it.each([
    { name: "lower case", text: "Net Revenue", folded: "net revenue" },
    { name: "whitespace runs become one space", text: "Total \t\n sales", folded: "total sales" },
    { name: "no-break space", text: "Q3\u00a0revenue", folded: "q3 revenue" },
    { name: "digits and separators kept", text: "$1,452.4 (2019)", folded: "$1,452.4 (2019)" },
    { name: "other scripts", text: "ÉTÉ Ärger", folded: "été ärger" },
    { name: "a letter that would grow stays put", text: "İstanbul 5", folded: "İstanbul 5" },
  ])("$name", ({ text, folded }) => {
    expect(foldLabelText(text)).toBe(folded);
  });

  it("keeps the numbers of the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789,. aBİ\t\n$()") }), (text) => {
        const keys = (value: string) => findNumbers(value).map((number) => number.key);
        expect(keys(foldLabelText(text))).toEqual(keys(text));
      }),
    );
  });
});

describe("stripTrailingParenthetical", () => {
  it.each([
    { name: "unit", label: "Revenue ($M)", stripped: "Revenue" },
    { name: "no space before it", label: "Foreign(2)", stripped: "Foreign" },
    {
      name: "nested",
      label: "Carrying amount (non-current (liabilities)/assets)",
      stripped: "Carrying amount",
    },
    { name: "only the last one", label: "Net (loss) income (restated)", stripped: "Net (loss) income" },
    { name: "trailing spaces", label: "Profit (EUR)  ", stripped: "Profit" },
    { name: "none", label: "Revenue", stripped: null },
    { name: "not at the end", label: "Net (loss) income", stripped: null },
    { name: "nothing left", label: "(in thousands)", stripped: null },
    { name: "unbalanced", label: "Revenue $M)", stripped: null },
  ])("$name: $label", ({ label, stripped }) => {
    expect(stripTrailingParenthetical(label)).toBe(stripped);
  });
});
