import { describe, expect, it } from "vitest";
import type { StepCounter } from "../step-counter.js";
import { parseTableLayouts, TableNumbers } from "../tables/index.js";
import { Mentions } from "../wording/index.js";
import { standsAlone } from "./lone-numbers.js";

// A table of `rows` rows and `columns` columns whose every cell holds 7 in a long text (`cellLength`
// characters), and a claim of `numbers` sevens, each between words that name a column: every number is
// held by every cell of its row and is read with the most cells and columns the rule reads.
function family(rows: number, columns: number, cellLength: number, numbers: number) {
  const cell = `w${"x".repeat(Math.max(0, cellLength - 4))} 7`;
  const header = `| ${Array.from({ length: columns }, (_, at) => `h${at}`).join(" | ")} |`;
  const line = `| ${Array.from({ length: columns }, () => cell).join(" | ")} |`;
  const markdown = [header, `|${"---|".repeat(columns)}`, ...Array.from({ length: rows }, () => line)].join(
    "\n",
  );
  const layout = parseTableLayouts(markdown)[0];
  if (layout === undefined) throw new Error("no table");
  const cells = new TableNumbers(markdown, layout);
  const claim = "h0 and then 7 and so ".repeat(numbers);
  const every = Array.from({ length: columns }, (_, at) => at);
  const mentions = Mentions.of(
    Array.from({ length: numbers }, (_, at) => ({
      start: at * 21,
      end: at * 21 + 2,
      table: 0,
      rows: [],
      columns: every,
    })),
  );
  const allRows = Array.from({ length: rows }, (_, at) => at);
  const counter: StepCounter = { steps: 0 };
  for (let at = 0; at < numbers; at += 1) {
    const start = at * 21 + 12;
    standsAlone(claim, mentions, cells, allRows, every, "7", start, start + 1, counter);
  }
  return { steps: counter.steps, size: claim.length + markdown.length };
}

describe("standsAlone (R45): steps", () => {
  it.each([
    { name: "many numbers, one table", at: (scale: number) => family(32, 16, 8, 100 * scale) },
    { name: "a wide table of long cells", at: (scale: number) => family(4, 4 * scale, 600, 50) },
    { name: "a long table", at: (scale: number) => family(50 * scale, 6, 12, 50) },
    { name: "everything grows", at: (scale: number) => family(8 * scale, 2 * scale, 20 * scale, 20 * scale) },
  ])(
    "$name: stays within 8 steps per character of claim and table as the input doubles from 1× to 32×",
    ({ at }) => {
      for (let scale = 1; scale <= 32; scale *= 2) {
        const { steps, size } = at(scale);
        expect(steps).toBeLessThanOrEqual(8 * size);
      }
    },
  );

  it("keeps a number no label stands beside, and not one a label stands beside", () => {
    const markdown = "| name | a | b |\n|---|---|---|\n| ann | 3 | 7 |";
    const layout = parseTableLayouts(markdown)[0];
    if (layout === undefined) throw new Error("no table");
    const cells = new TableNumbers(markdown, layout);
    const claim = "a of ann rose to 7";
    const apart = Mentions.of([{ start: 0, end: 1, table: 0, rows: [], columns: [1] }]);
    expect(standsAlone(claim, apart, cells, [0], [1], "7", 17, 18)).toBe(true);
    const beside = Mentions.of([{ start: 9, end: 10, table: 0, rows: [], columns: [1] }]);
    expect(standsAlone("ann rose a was 7", beside, cells, [0], [1], "7", 15, 16)).toBe(false);
  });
});
