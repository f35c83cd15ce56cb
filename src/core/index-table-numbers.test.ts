import { describe, expect, it } from "vitest";
import { indexTableNumbers } from "./index-table-numbers.js";
import { parseMarkdownTables } from "./parse-markdown-tables.js";

const sorted = (sets: Set<string>[]) => sets.map((set) => [...set].sort());

describe("indexTableNumbers", () => {
  it("collects the number keys of each cell, row (label cell included) and column (header excluded)", () => {
    const [table] = parseMarkdownTables(
      "| Rank 1 | 2019 | 2018 |\n|---|---|---|\n| 3 | $  1,452.4 | (182,601) |\n| Other | 2.70% | — |",
    );
    if (table === undefined) throw new Error("no table");
    const numbers = indexTableNumbers(table);
    expect({
      cells: numbers.cells.map(sorted),
      rows: sorted(numbers.rows),
      columns: sorted(numbers.columns),
    }).toEqual({
      cells: [
        [["3"], ["1452.4"], ["182601"]],
        [[], ["2.7"], []],
      ],
      rows: [["1452.4", "182601", "3"], ["2.7"]],
      columns: [["3"], ["1452.4", "2.7"], ["182601"]],
    });
  });
});
