import { describe, expect, it } from "vitest";
import { describeDrop, describeNumberMiss } from "./describe-miss.js";

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

describe("describeDrop", () => {
  it.each([
    [
      "wrong_source names the sources that support the claim",
      { reason: "wrong_source", detail: { foundIn: ["report_q3"] } },
      "its cited source does not support it; report_q3 does",
    ],
    [
      "wrong_source with two supporting sources",
      { reason: "wrong_source", detail: { foundIn: ["a", "b"] } },
      "its cited source does not support it; a, b do",
    ],
    [
      "entity_not_found names the entity",
      { reason: "entity_not_found", detail: { entity: "Zorgland" } },
      `"Zorgland" is in no source and not in the question`,
    ],
    [
      "quote_not_found names the quotation",
      { reason: "quote_not_found", detail: { quotation: "never said" } },
      `the quotation "never said" is not in its cited source`,
    ],
    [
      "unknown_source names the marker",
      { reason: "unknown_source", detail: { marker: "[9]" } },
      "the marker [9] names no source",
    ],
    [
      "no_support names the missing words",
      { reason: "no_support", detail: { words: ["moon", "cheese"] } },
      `no span of its sources holds "moon", "cheese"`,
    ],
    [
      "number_not_found reads as describeNumberMiss",
      { reason: "number_not_found", detail: { number: "7", checked: "source" as const } },
      "7 is not in the cited source",
    ],
  ])("%s", (_name, item, expected) => {
    expect(describeDrop(item)).toBe(expected);
  });

  it("says nothing when there is no detail to tell", () => {
    expect(describeDrop({ reason: "no_support" })).toBeUndefined();
    expect(describeDrop({ reason: "no_support", detail: { words: [] } })).toBeUndefined();
  });
});
