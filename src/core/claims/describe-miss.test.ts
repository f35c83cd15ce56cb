import { describe, expect, it } from "vitest";
import { describeNumberMiss } from "./describe-miss.js";

describe("describeNumberMiss", () => {
  it("names the number and what it was checked against, for each kind of check", () => {
    expect(describeNumberMiss({ number: "7", checked: "source" })).toBe("7 is not in the cited source");
    expect(describeNumberMiss({ number: "7", checked: "quote", text: "rose 5%" })).toBe(
      `7 is not in the claim's quote: "rose 5%"`,
    );
    expect(describeNumberMiss({ number: "7", checked: "line", text: "| Q3 | 5 |" })).toBe(
      `7 is not on the quoted line: "| Q3 | 5 |"`,
    );
    expect(
      describeNumberMiss({
        number: "7",
        checked: "cells",
        cells: [
          { row: "Q3", column: "Revenue", text: "5" },
          { row: "Q2", column: "Revenue", text: "6" },
        ],
      }),
    ).toBe(`7 is not in the cells checked (Q3 / Revenue: "5"; Q2 / Revenue: "6")`);
  });

  it("says no cell was checked when none is listed, and the two reasons there can be", () => {
    const described = describeNumberMiss({ number: "7", checked: "cells", cells: [] });
    expect(described).toMatch(/^7 was not bound to a cell: no cell was checked/);
    expect(described).toContain("the table named has no body rows");
    expect(described).toContain("names table labels more often than the row check reads");
  });
});
