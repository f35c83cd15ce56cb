import { describe, expect, it } from "vitest";
import { stripTrailingParenthetical } from "./strip-trailing-parenthetical.js";

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
