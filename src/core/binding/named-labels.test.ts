import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldLabelText, parseTableLayouts } from "../tables/index.js";
import { buildLabelIndex } from "./label-index.js";
import { findNamedLabels } from "./named-labels.js";

const FINANCE = [
  "| Quarter | Revenue ($M) | Net revenue | Profit | $ | % |",
  "| --- | --- | --- | --- | --- | --- |",
  "| Q2 | 100 | 90 | 10 | 1 | 2 |",
  "| Q3 | 120 | 110 | 12 | 3 | 4 |",
  "| 3 | 1 | 1 | 1 | 1 | 1 |",
  "| Total | 220 | 200 | 22 | 4 | 6 |",
].join("\n");

const named = (markdown: string, claim: string) => {
  const folded = foldLabelText(claim);
  return findNamedLabels(folded, buildLabelIndex(parseTableLayouts(markdown)))
    .toArray()
    .map((occurrence) => ({
      text: folded.slice(occurrence.start, occurrence.end),
      table: occurrence.table,
      rows: occurrence.rows,
      columns: occurrence.columns,
    }));
};

describe("findNamedLabels", () => {
  it.each([
    {
      name: "row and column, case-insensitive",
      claim: "Q3 REVENUE was 120",
      found: [
        { text: "q3", table: 0, rows: [1], columns: [] },
        { text: "revenue", table: 0, rows: [], columns: [1] },
      ],
    },
    {
      name: "the longest label wins an overlap",
      claim: "Q3 net revenue was 110",
      found: [
        { text: "q3", table: 0, rows: [1], columns: [] },
        { text: "net revenue", table: 0, rows: [], columns: [2] },
      ],
    },
    {
      name: "the full label with its parenthetical",
      claim: "Revenue ($M) in Q2",
      found: [
        { text: "revenue ($m)", table: 0, rows: [], columns: [1] },
        { text: "q2", table: 0, rows: [0], columns: [] },
      ],
    },
    { name: "not inside a longer word", claim: "Q33 revenues, quarterly profits", found: [] },
    {
      name: "whitespace runs match",
      claim: "Net\n  revenue grew",
      found: [{ text: "net revenue", table: 0, rows: [], columns: [2] }],
    },
    {
      name: "a row label and a column label",
      claim: "Total profit",
      found: [
        { text: "total", table: 0, rows: [3], columns: [] },
        { text: "profit", table: 0, rows: [], columns: [3] },
      ],
    },
    {
      name: "a number label is named only as a whole number",
      claim: "ranked 3, not 3.5 or 1,3 or 13",
      found: [{ text: "3", table: 0, rows: [2], columns: [] }],
    },
    {
      name: "a symbol label standing apart is named",
      claim: "Q3 for % was 4",
      found: [
        { text: "q3", table: 0, rows: [1], columns: [] },
        { text: "%", table: 0, rows: [], columns: [5] },
      ],
    },
    {
      name: "a symbol label beside a number is its unit",
      claim: "Q2 was $100, 12 %, $ (9) and (87%)",
      found: [{ text: "q2", table: 0, rows: [0], columns: [] }],
    },
  ])("$name", ({ claim, found }) => {
    expect(named(FINANCE, claim)).toEqual(found);
  });

  it("resolves overlaps per table, in claim order within each table", () => {
    const markdown = "| Item | Net revenue |\n|-|-|\n| A | 1 |\n\n| Item | Revenue |\n|-|-|\n| B | 2 |";
    expect(named(markdown, "B net revenue")).toEqual([
      { text: "net revenue", table: 0, rows: [], columns: [1] },
      { text: "b", table: 1, rows: [0], columns: [] },
      { text: "revenue", table: 1, rows: [], columns: [1] },
    ]);
  });

  it("finds nothing without tables", () => {
    expect(named("no table here", "Q3 revenue")).toEqual([]);
  });

  it("returns non-overlapping occurrences that slice to a label, deterministically", () => {
    const labels = ["q3", "revenue", "net revenue", "total", "3", "%", "q3 total"];
    const markdown = `| ${labels.join(" | ")} |\n|${labels.map(() => "-").join("|")}|\n| ${labels.join(" | ")} |`;
    const index = buildLabelIndex(parseTableLayouts(markdown));
    const words = fc.constantFrom("Q3", "net", "Revenue", "total", "3", "%", "3.5", "was", "12%", " ", ",");
    fc.assert(
      fc.property(fc.array(words, { maxLength: 12 }), (parts) => {
        const folded = foldLabelText(parts.join(" "));
        const found = findNamedLabels(folded, index).toArray();
        for (const [position, occurrence] of found.entries()) {
          expect(labels).toContain(folded.slice(occurrence.start, occurrence.end));
          const next = found[position + 1];
          if (next !== undefined) expect(next.start).toBeGreaterThanOrEqual(occurrence.end);
        }
        expect(findNamedLabels(folded, index).toArray()).toEqual(found);
      }),
    );
  });
});
